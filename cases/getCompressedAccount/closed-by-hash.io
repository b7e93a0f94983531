// description: a consumed account is not found
// clauses: 4.2-M1, 7-N1, 3.2-R2
// mode: invariant:null-value
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedAccount/closed-by-hash","method":"getCompressedAccount","params":{"hash":"2MT4GUrxViRWcUwcD3GtvJAoAEsXsKgozi54Pwdvcqw1"}}
<< {"jsonrpc":"2.0","id":"getCompressedAccount/closed-by-hash","result":{"context":{"slot":1010},"value":null}}
