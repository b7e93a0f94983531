// description: params without `signature` are refused
// clauses: 4.2-M10, 4.1-R5
// mode: invariant:error
// scenario: default
>> {"jsonrpc":"2.0","id":"getTransactionWithCompressionInfo/error-missing-signature","method":"getTransactionWithCompressionInfo","params":{}}
<< {"jsonrpc":"2.0","id":"getTransactionWithCompressionInfo/error-missing-signature","error":{"code":-32602,"message":"Invalid params: /: \"signature\" is a required property"}}
