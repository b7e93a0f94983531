// description: inside the JSON-RPC wrapper or the bare {context, value}
// clauses: 4.2-M3, 4.1-R6, 4.1-R7
// mode: schema
// scenario: default
// ambiguity: balance-wrapper
>> {"jsonrpc":"2.0","id":"getCompressedBalance/wrapper","method":"getCompressedBalance","params":{"hash":"2QQdESHLFgSXxZbUerpnBab3F88eirEDd9rxdUov56HH"}}
<< {"jsonrpc":"2.0","id":"getCompressedBalance/wrapper","result":{"context":{"slot":1010},"value":4000}}
