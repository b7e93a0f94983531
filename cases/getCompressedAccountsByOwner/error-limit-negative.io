// description: a negative limit is refused
// clauses: 4.2-M5, 2.1-R3
// mode: invariant:error
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedAccountsByOwner/error-limit-negative","method":"getCompressedAccountsByOwner","params":{"owner":"HXqWBGAti3PL6VGuVEjUEeTUQ1tMmHmbkovbAJBBUiGE","limit":-1}}
<< {"jsonrpc":"2.0","id":"getCompressedAccountsByOwner/error-limit-negative","error":{"code":-32602,"message":"Invalid params: /limit: -1 is not valid under any of the schemas listed in the 'anyOf' keyword"}}
