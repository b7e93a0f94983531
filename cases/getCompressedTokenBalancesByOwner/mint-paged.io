// description: mint holds on the page after its balance: the next page is empty
// clauses: 4.2-M8, 4.2-N4, 4.1-R8
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedTokenBalancesByOwner/mint-paged","method":"getCompressedTokenBalancesByOwner","params":{"owner":"7Qiv9inQHzZjdVUwqsHhpXuVxa4yJJqfCf4nhyEbzAdT","mint":"6gvofEZhNeEsLHdHs3fNmUGs61NKjEusXCddoB8qf6vu","limit":1}}
<< {"jsonrpc":"2.0","id":"getCompressedTokenBalancesByOwner/mint-paged","result":{"context":{"slot":1010},"value":{"token_balances":[{"balance":1000,"mint":"6gvofEZhNeEsLHdHs3fNmUGs61NKjEusXCddoB8qf6vu"}],"cursor":"6gvofEZhNeEsLHdHs3fNmUGs61NKjEusXCddoB8qf6vu"}}}
