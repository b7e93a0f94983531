// description: limit 1 answers one item
// clauses: 4.2-M15, 4.2-N3
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getLatestNonVotingSignatures/limit-1","method":"getLatestNonVotingSignatures","params":{"limit":1}}
<< {"jsonrpc":"2.0","id":"getLatestNonVotingSignatures/limit-1","result":{"context":{"slot":1010},"value":{"items":[{"signature":"3TDJx3ceES9q66EQjSJJafSpQq6ZeMuL7KTDYnaAgxXG323Q9UM8YQzyQRHWPkDLJzqCgiaZuCUzu8tc4QadDe7P","slot":1008,"blockTime":1700000403,"error":null}]}}}
