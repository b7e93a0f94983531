// description: jsonrpc must be 2.0
// clauses: 4.2-M19, 9-R1, 4.1-R4
// mode: invariant:error
// scenario: default
>> {"jsonrpc":"1.0","id":"getIndexerSlot/error-jsonrpc-1-0","method":"getIndexerSlot"}
<< {"jsonrpc":"2.0","id":"getIndexerSlot/error-jsonrpc-1-0","error":{"code":-32600,"message":"Invalid Request: /jsonrpc: \"2.0\" was expected"}}
