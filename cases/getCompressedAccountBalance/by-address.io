// description: lamports of an account, by address
// clauses: 4.2-M2, 4.1-R7
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedAccountBalance/by-address","method":"getCompressedAccountBalance","params":{"address":"14GQVR7MwXTjDhtdEEYKXFfCafy9kmwmKDgkTsk8Z3PV"}}
<< {"jsonrpc":"2.0","id":"getCompressedAccountBalance/by-address","result":{"context":{"slot":1010},"value":8000}}
