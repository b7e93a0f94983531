// description: the last indexed slot, a bare integer
// clauses: 4.2-M19
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getIndexerSlot/slot","method":"getIndexerSlot"}
<< {"jsonrpc":"2.0","id":"getIndexerSlot/slot","result":1010}
