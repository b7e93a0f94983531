// description: an indexer that saw nothing
// clauses: 4.2-M19
// mode: exact
// scenario: empty
>> {"jsonrpc":"2.0","id":"getIndexerSlot/empty-scenario","method":"getIndexerSlot"}
<< {"jsonrpc":"2.0","id":"getIndexerSlot/empty-scenario","result":0}
