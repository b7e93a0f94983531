// description: mint restricts to one token
// clauses: 4.2-M8, 4.2-N4
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedTokenBalancesByOwner/mint","method":"getCompressedTokenBalancesByOwner","params":{"owner":"Dwqd3QZ2eNTqQYf1VAU1CJQaQk6qoCUwtYeHbjdADGcK","mint":"ADggf3dEtH8sJkGdomYRKLHSYma59StgJfoQezXBKpgW"}}
<< {"jsonrpc":"2.0","id":"getCompressedTokenBalancesByOwner/mint","result":{"context":{"slot":1010},"value":{"token_balances":[{"balance":9007199254741000,"mint":"ADggf3dEtH8sJkGdomYRKLHSYma59StgJfoQezXBKpgW"}],"cursor":null}}}
