// description: a token account as a CompressedAccount
// clauses: 4.2-M1, 2.3-R1
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedAccount/by-hash-token-account","method":"getCompressedAccount","params":{"hash":"2siz7yyDhgry2SbHuf5VPyyG9BDkFUC3caFzv5Nx2S69"}}
<< {"jsonrpc":"2.0","id":"getCompressedAccount/by-hash-token-account","result":{"context":{"slot":1010},"value":{"hash":"2siz7yyDhgry2SbHuf5VPyyG9BDkFUC3caFzv5Nx2S69","lamports":0,"leafIndex":8,"owner":"cTokenmWW8bLPjZEBAUgYy3zKxQZW6VKi7bqNFEVv3m","slotCreated":1002,"tree":"smt1NamzXdq4AMqS2fS2F1i5KTYPZRhoHgWx38d8WsT","address":null,"data":{"data":"iPkFx3sFwJMmd1aMUxN/sTtSuP5d7Rjg8IKvGdOhMH/AWJVM3JJ32mIRPn8gVdM3DpqH9BNuLXh9cNtei5+YjAEAAAAAACAAAfUggrRLeNB+4uF0Iij2jfVgzWttHu6cz8e4WeNsmGdGAAA=","dataHash":"RijX2AeTYaA451U8DwA3iqfWx4KtGkDARQp6NerEp6X","discriminator":2},"seq":9}}}
