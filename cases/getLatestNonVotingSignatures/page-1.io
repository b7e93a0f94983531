// description: first page, 4 per page
// clauses: 4.2-M15, 4.1-R8, 4.2-N3
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getLatestNonVotingSignatures/page-1","method":"getLatestNonVotingSignatures","params":{"limit":4}}
<< {"jsonrpc":"2.0","id":"getLatestNonVotingSignatures/page-1","result":{"context":{"slot":1010},"value":{"items":[{"signature":"3TDJx3ceES9q66EQjSJJafSpQq6ZeMuL7KTDYnaAgxXG323Q9UM8YQzyQRHWPkDLJzqCgiaZuCUzu8tc4QadDe7P","slot":1008,"blockTime":1700000403,"error":null},{"signature":"1LzUa6tZ7vwC7MJzqkqTj13LtwYRN7qhZoEbGLCtRssPWjzvf2aNyLYBH4yHjudJ8jeVe4HoHhYmNpN4Wo23Cyy","slot":1007,"blockTime":1700000402,"error":null},{"signature":"4mpb3WXf1RHtRA89W7zUnwWrnRuaGyEZjpjnaNtvBe9FxTq5EevqFNwpUrFNki5LBQhHLvoDL9rTQQ2EP6rvtHv4","slot":1006,"blockTime":1700000402,"error":"InstructionError(1, Custom(1))"},{"signature":"4E8j7KFYCFtAvoNvxWsfWdMSh2yv4sWKnQ3eJjbMd97euAENesqi1vQBTN2wBZmGpyR3cmcd9ntxpCP137gg48AM","slot":1005,"blockTime":1700000402,"error":null}]}}}
