// description: page 3, 1 per page, with the cursor page 2 answered
// clauses: 4.2-M6, 4.1-R8, 4.2-N3
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedTokenAccountsByOwner/page-3","method":"getCompressedTokenAccountsByOwner","params":{"owner":"Dwqd3QZ2eNTqQYf1VAU1CJQaQk6qoCUwtYeHbjdADGcK","limit":1,"cursor":"3jqPsXNJeebZErRcaG4htanwLm4SGSYmv9Qzv4g7eXQHyApa6hDm2HDSMwUJh9gGLuAdHvxk8TVFtjrStRNjBtif"}}
<< {"jsonrpc":"2.0","id":"getCompressedTokenAccountsByOwner/page-3","result":{"context":{"slot":1010},"value":{"items":[],"cursor":null}}}
