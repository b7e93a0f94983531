// description: inside the JSON-RPC wrapper or the bare {context, value}
// clauses: 4.2-M2, 4.1-R6, 4.1-R7
// mode: schema
// scenario: default
// ambiguity: balance-wrapper
>> {"jsonrpc":"2.0","id":"getCompressedAccountBalance/wrapper","method":"getCompressedAccountBalance","params":{"hash":"386tyLWJDiJo6y5TfG7vEgQgbzMDTNVJZ5NWieYW5AX5"}}
<< {"jsonrpc":"2.0","id":"getCompressedAccountBalance/wrapper","result":{"context":{"slot":1010},"value":4000}}
