// description: jsonrpc must be the string 2.0
// clauses: 4.2-M19, 9-R1
// mode: invariant:error
// scenario: default
>> {"jsonrpc":2.0,"id":"getIndexerSlot/error-jsonrpc-number","method":"getIndexerSlot"}
<< {"jsonrpc":"2.0","id":"getIndexerSlot/error-jsonrpc-number","error":{"code":-32600,"message":"Invalid Request: /jsonrpc: \"2.0\" was expected"}}
