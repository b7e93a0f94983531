// description: the token program as owner
// clauses: 4.2-M4
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedBalanceByOwner/token-program","method":"getCompressedBalanceByOwner","params":{"owner":"cTokenmWW8bLPjZEBAUgYy3zKxQZW6VKi7bqNFEVv3m"}}
<< {"jsonrpc":"2.0","id":"getCompressedBalanceByOwner/token-program","result":{"context":{"slot":1010},"value":0}}
