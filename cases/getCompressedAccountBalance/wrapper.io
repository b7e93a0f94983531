// description: inside the JSON-RPC wrapper or the bare {context, value}
// clauses: 4.2-M2, 4.1-R6, 4.1-R7
// mode: schema
// scenario: default
// ambiguity: balance-wrapper
>> {"jsonrpc":"2.0","id":"getCompressedAccountBalance/wrapper","method":"getCompressedAccountBalance","params":{"hash":"2QQdESHLFgSXxZbUerpnBab3F88eirEDd9rxdUov56HH"}}
<< {"jsonrpc":"2.0","id":"getCompressedAccountBalance/wrapper","result":{"context":{"slot":1010},"value":4000}}
