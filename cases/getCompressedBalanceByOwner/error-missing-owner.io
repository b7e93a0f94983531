// description: params without `owner` are refused
// clauses: 4.2-M4, 4.1-R5
// mode: invariant:error
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedBalanceByOwner/error-missing-owner","method":"getCompressedBalanceByOwner","params":{}}
<< {"jsonrpc":"2.0","id":"getCompressedBalanceByOwner/error-missing-owner","error":{"code":-32602,"message":"Invalid params: /: \"owner\" is a required property"}}
