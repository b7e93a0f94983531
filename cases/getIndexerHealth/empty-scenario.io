// description: an indexer that saw nothing is healthy
// clauses: 4.2-M18, 4.2-N6
// mode: exact
// scenario: empty
>> {"jsonrpc":"2.0","id":"getIndexerHealth/empty-scenario","method":"getIndexerHealth"}
<< {"jsonrpc":"2.0","id":"getIndexerHealth/empty-scenario","result":"ok"}
