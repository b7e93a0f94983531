// description: an empty params object reads as none
// clauses: 4.2-M19, 4.1-R5
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getIndexerSlot/params-empty-object","method":"getIndexerSlot","params":{}}
<< {"jsonrpc":"2.0","id":"getIndexerSlot/params-empty-object","result":1010}
