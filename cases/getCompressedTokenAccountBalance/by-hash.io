// description: an amount of 2^53 + 1, exact
// clauses: 4.2-M9, 2.1-R6
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedTokenAccountBalance/by-hash","method":"getCompressedTokenAccountBalance","params":{"hash":"2siz7yyDhgry2SbHuf5VPyyG9BDkFUC3caFzv5Nx2S69"}}
<< {"jsonrpc":"2.0","id":"getCompressedTokenAccountBalance/by-hash","result":{"context":{"slot":1010},"value":{"amount":9007199254740993}}}
