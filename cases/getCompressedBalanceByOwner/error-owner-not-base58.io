// description: an owner that is not base58
// clauses: 4.2-M4, 2.1-R1
// mode: invariant:error
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedBalanceByOwner/error-owner-not-base58","method":"getCompressedBalanceByOwner","params":{"owner":"owner"}}
<< {"jsonrpc":"2.0","id":"getCompressedBalanceByOwner/error-owner-not-base58","error":{"code":-32602,"message":"Invalid params: /owner: \"owner\" does not match \"^[1-9A-HJ-NP-Za-km-z]{32,44}$\""}}
