// description: limit 1000, the observed maximum, is accepted
// clauses: 4.2-M11, 4.2-N3, 8-S2
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressionSignaturesForAddress/limit-1000","method":"getCompressionSignaturesForAddress","params":{"address":"1qd7ttTRWA21yuCcancFC2wzDKLwywwN36KDi81x6x3","limit":1000}}
<< {"jsonrpc":"2.0","id":"getCompressionSignaturesForAddress/limit-1000","result":{"context":{"slot":1010},"value":{"items":[{"signature":"1LzUa6tZ7vwC7MJzqkqTj13LtwYRN7qhZoEbGLCtRssPWjzvf2aNyLYBH4yHjudJ8jeVe4HoHhYmNpN4Wo23Cyy","slot":1007,"blockTime":1700000402},{"signature":"dovnU4h563WvoPwePbJU8sFBVFjJiCWGsKpNCb2Jrg1Y4cbXDCfDVPZKyDozjZ6rVFmTcwdwgVSVvsxDdBsZLu4","slot":1000,"blockTime":1700000400}],"cursor":null}}}
