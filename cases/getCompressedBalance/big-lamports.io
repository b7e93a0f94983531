// description: 2^53 + 1 lamports, exact
// clauses: 4.2-M3, 2.1-R3
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedBalance/big-lamports","method":"getCompressedBalance","params":{"hash":"QBvo3Jiz35VVZsXEZrt4qgiGjCSkimE5g4SCMtY1EW6"}}
<< {"jsonrpc":"2.0","id":"getCompressedBalance/big-lamports","result":{"context":{"slot":1010},"value":9007199254740993}}
