// description: the tip is too far ahead
// clauses: 4.2-M18, 7-C3, 4.2-N6
// mode: invariant:error
// scenario: stale
>> {"jsonrpc":"2.0","id":"getIndexerHealth/error-stale-stale","method":"getIndexerHealth"}
<< {"jsonrpc":"2.0","id":"getIndexerHealth/error-stale-stale","error":{"code":-32000,"message":"Node is behind 50 slots"}}
