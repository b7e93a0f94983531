// description: jsonrpc must not be null
// clauses: 4.2-M19, 9-R1, 4.1-R4
// mode: invariant:error
// scenario: default
>> {"jsonrpc":null,"id":"getIndexerSlot/error-jsonrpc-null","method":"getIndexerSlot"}
<< {"jsonrpc":"2.0","id":"getIndexerSlot/error-jsonrpc-null","error":{"code":-32600,"message":"Invalid Request: /jsonrpc: \"2.0\" was expected"}}
