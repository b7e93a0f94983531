// description: first page, 1 per page: a full page carries a cursor
// clauses: 4.2-M11, 4.1-R8, 4.2-N3
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressionSignaturesForAddress/page-1","method":"getCompressionSignaturesForAddress","params":{"address":"1qd7ttTRWA21yuCcancFC2wzDKLwywwN36KDi81x6x3","limit":1}}
<< {"jsonrpc":"2.0","id":"getCompressionSignaturesForAddress/page-1","result":{"context":{"slot":1010},"value":{"items":[{"signature":"1LzUa6tZ7vwC7MJzqkqTj13LtwYRN7qhZoEbGLCtRssPWjzvf2aNyLYBH4yHjudJ8jeVe4HoHhYmNpN4Wo23Cyy","slot":1007,"blockTime":1700000402}],"cursor":"4Xcn2LPgs711K6YnztSh3B56KEwYa3nmoyjFonvg4NZHXXaQSW2sdbeTWTj9iJZtQ1gCCutzNoGb8eYoESr8oBVjsjd8Rbq7iuR"}}}
