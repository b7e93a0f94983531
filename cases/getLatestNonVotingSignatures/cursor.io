// description: a page without a cursor member, or with one
// clauses: 4.2-M15, 4.1-R8
// mode: schema
// scenario: default
// ambiguity: latest-nonvoting-cursor
>> {"jsonrpc":"2.0","id":"getLatestNonVotingSignatures/cursor","method":"getLatestNonVotingSignatures","params":{"limit":2}}
<< {"jsonrpc":"2.0","id":"getLatestNonVotingSignatures/cursor","result":{"context":{"slot":1010},"value":{"items":[{"signature":"3TDJx3ceES9q66EQjSJJafSpQq6ZeMuL7KTDYnaAgxXG323Q9UM8YQzyQRHWPkDLJzqCgiaZuCUzu8tc4QadDe7P","slot":1008,"blockTime":1700000403,"error":null},{"signature":"1LzUa6tZ7vwC7MJzqkqTj13LtwYRN7qhZoEbGLCtRssPWjzvf2aNyLYBH4yHjudJ8jeVe4HoHhYmNpN4Wo23Cyy","slot":1007,"blockTime":1700000402,"error":null}]}}}
