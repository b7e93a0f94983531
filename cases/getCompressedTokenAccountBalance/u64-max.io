// description: an amount of u64 max, exact
// clauses: 4.2-M9, 2.1-R6
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedTokenAccountBalance/u64-max","method":"getCompressedTokenAccountBalance","params":{"hash":"Rr36cg7KeTvhvBK9NHE5vRUYJzYQu9AfCjJUn3ekhL7"}}
<< {"jsonrpc":"2.0","id":"getCompressedTokenAccountBalance/u64-max","result":{"context":{"slot":1010},"value":{"amount":18446744073709551615}}}
