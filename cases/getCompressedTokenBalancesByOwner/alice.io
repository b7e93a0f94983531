// description: a sum above 2^53 per mint
// clauses: 4.2-M8, 2.7-R1, 2.1-R6
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedTokenBalancesByOwner/alice","method":"getCompressedTokenBalancesByOwner","params":{"owner":"Dwqd3QZ2eNTqQYf1VAU1CJQaQk6qoCUwtYeHbjdADGcK"}}
<< {"jsonrpc":"2.0","id":"getCompressedTokenBalancesByOwner/alice","result":{"context":{"slot":1010},"value":{"token_balances":[{"balance":9007199254741000,"mint":"ADggf3dEtH8sJkGdomYRKLHSYma59StgJfoQezXBKpgW"}],"cursor":null}}}
