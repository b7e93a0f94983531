// description: a failed transaction involves no compressed account: null
// clauses: 4.2-M10, 7-N2, 4.2-N7
// mode: invariant:null-answer
// scenario: default
>> {"jsonrpc":"2.0","id":"getTransactionWithCompressionInfo/failed-with-close","method":"getTransactionWithCompressionInfo","params":{"signature":"4mpb3WXf1RHtRA89W7zUnwWrnRuaGyEZjpjnaNtvBe9FxTq5EevqFNwpUrFNki5LBQhHLvoDL9rTQQ2EP6rvtHv4"}}
<< {"jsonrpc":"2.0","id":"getTransactionWithCompressionInfo/failed-with-close","result":null}
