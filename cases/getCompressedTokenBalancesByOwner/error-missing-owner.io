// description: params without `owner` are refused
// clauses: 4.2-M8, 4.1-R5
// mode: invariant:error
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedTokenBalancesByOwner/error-missing-owner","method":"getCompressedTokenBalancesByOwner","params":{}}
<< {"jsonrpc":"2.0","id":"getCompressedTokenBalancesByOwner/error-missing-owner","error":{"code":-32602,"message":"Invalid params: /: \"owner\" is a required property"}}
