// description: a consumed account: 0 as observed, the spec is silent
// clauses: 4.2-M2, 3.2-R2
// mode: schema
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedAccountBalance/closed-account","method":"getCompressedAccountBalance","params":{"hash":"2MT4GUrxViRWcUwcD3GtvJAoAEsXsKgozi54Pwdvcqw1"}}
<< {"jsonrpc":"2.0","id":"getCompressedAccountBalance/closed-account","result":{"context":{"slot":1010},"value":0}}
