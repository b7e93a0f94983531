// description: params without `delegate` are refused
// clauses: 4.2-M7, 4.1-R5
// mode: invariant:error
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedTokenAccountsByDelegate/error-missing-delegate","method":"getCompressedTokenAccountsByDelegate","params":{}}
<< {"jsonrpc":"2.0","id":"getCompressedTokenAccountsByDelegate/error-missing-delegate","error":{"code":-32602,"message":"Invalid params: /: \"delegate\" is a required property"}}
