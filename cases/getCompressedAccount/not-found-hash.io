// description: an unknown hash: a null value
// clauses: 4.2-M1, 7-N1
// mode: invariant:null-value
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedAccount/not-found-hash","method":"getCompressedAccount","params":{"hash":"4wBqpZM9xaSheZzJSMawUKKwhdpChKbZ5eu5ky4Vigw"}}
<< {"jsonrpc":"2.0","id":"getCompressedAccount/not-found-hash","result":{"context":{"slot":1010},"value":null}}
