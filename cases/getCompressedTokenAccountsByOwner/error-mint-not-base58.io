// description: a mint that is not base58
// clauses: 4.2-M6, 2.1-R1
// mode: invariant:error
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedTokenAccountsByOwner/error-mint-not-base58","method":"getCompressedTokenAccountsByOwner","params":{"owner":"Dwqd3QZ2eNTqQYf1VAU1CJQaQk6qoCUwtYeHbjdADGcK","mint":"mint"}}
<< {"jsonrpc":"2.0","id":"getCompressedTokenAccountsByOwner/error-mint-not-base58","error":{"code":-32602,"message":"Invalid params: /mint: \"mint\" is not valid under any of the schemas listed in the 'anyOf' keyword"}}
