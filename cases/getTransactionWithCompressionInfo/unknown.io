// description: an unknown signature: null
// clauses: 4.2-M10, 7-N2
// mode: invariant:null-answer
// scenario: default
>> {"jsonrpc":"2.0","id":"getTransactionWithCompressionInfo/unknown","method":"getTransactionWithCompressionInfo","params":{"signature":"1GMkH3brNXiNNs1tiFZHu4yZSRrzJwxi5wB9bHFtMinfCXNnR1adh8Vo8NTheK4evneedH4qmvjeqcBBNAefgS"}}
<< {"jsonrpc":"2.0","id":"getTransactionWithCompressionInfo/unknown","result":null}
