// description: a healthy indexer: ok (tip 4 slots ahead)
// clauses: 4.2-M18, 4.2-N6
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getIndexerHealth/ok","method":"getIndexerHealth"}
<< {"jsonrpc":"2.0","id":"getIndexerHealth/ok","result":"ok"}
