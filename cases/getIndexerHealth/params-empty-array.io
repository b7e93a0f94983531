// description: an empty params array reads as none
// clauses: 4.2-M18, 4.1-R5
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getIndexerHealth/params-empty-array","method":"getIndexerHealth","params":[]}
<< {"jsonrpc":"2.0","id":"getIndexerHealth/params-empty-array","result":"ok"}
