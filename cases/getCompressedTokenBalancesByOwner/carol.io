// description: two mints, mint ascending (observed)
// clauses: 4.2-M8, 2.7-R1
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedTokenBalancesByOwner/carol","method":"getCompressedTokenBalancesByOwner","params":{"owner":"7Qiv9inQHzZjdVUwqsHhpXuVxa4yJJqfCf4nhyEbzAdT"}}
<< {"jsonrpc":"2.0","id":"getCompressedTokenBalancesByOwner/carol","result":{"context":{"slot":1010},"value":{"token_balances":[{"balance":1000,"mint":"6gvofEZhNeEsLHdHs3fNmUGs61NKjEusXCddoB8qf6vu"},{"balance":1,"mint":"ADggf3dEtH8sJkGdomYRKLHSYma59StgJfoQezXBKpgW"}],"cursor":null}}}
