// description: a consumed account: 0 as observed
// clauses: 4.2-M9, 3.2-R2
// mode: schema
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedTokenAccountBalance/closed","method":"getCompressedTokenAccountBalance","params":{"hash":"2xKB1outPPH48Jx3y4uERgFG8HvnYAYG92jx8HP3ozSh"}}
<< {"jsonrpc":"2.0","id":"getCompressedTokenAccountBalance/closed","result":{"context":{"slot":1010},"value":{"amount":0}}}
