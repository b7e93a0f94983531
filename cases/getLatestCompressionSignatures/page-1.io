// description: first page, 4 per page: a full page carries a cursor
// clauses: 4.2-M14, 4.1-R8, 4.2-N3
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getLatestCompressionSignatures/page-1","method":"getLatestCompressionSignatures","params":{"limit":4}}
<< {"jsonrpc":"2.0","id":"getLatestCompressionSignatures/page-1","result":{"context":{"slot":1010},"value":{"items":[{"signature":"3TDJx3ceES9q66EQjSJJafSpQq6ZeMuL7KTDYnaAgxXG323Q9UM8YQzyQRHWPkDLJzqCgiaZuCUzu8tc4QadDe7P","slot":1008,"blockTime":1700000403},{"signature":"1LzUa6tZ7vwC7MJzqkqTj13LtwYRN7qhZoEbGLCtRssPWjzvf2aNyLYBH4yHjudJ8jeVe4HoHhYmNpN4Wo23Cyy","slot":1007,"blockTime":1700000402},{"signature":"4E8j7KFYCFtAvoNvxWsfWdMSh2yv4sWKnQ3eJjbMd97euAENesqi1vQBTN2wBZmGpyR3cmcd9ntxpCP137gg48AM","slot":1005,"blockTime":1700000402},{"signature":"3ZkV7nvRx7UKQ6eayVZukgdfuxBczb7zRAv49BiAbdURmVqadsesXcPoWTYW7ThbMheL61qtfmRViuA1DJ1DM5Dj","slot":1005,"blockTime":1700000402}],"cursor":"4VuUDN94QwtsMJhkQAgwyLwwtjrtxMmqKry92sKv1qFe3vYkjeYVzkNHXpJ4S2iuZBrTbJ7VjcEszaXpdfKsFwExFLLpfRfM6iM"}}}
