// description: transactions that touched registry's accounts
// clauses: 4.2-M12, 2.8-R1
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressionSignaturesForOwner/registry","method":"getCompressionSignaturesForOwner","params":{"owner":"6MiscGj9voYhAbkJvYpjLcCVR9kxqwJs5uo2RXF7BL3y"}}
<< {"jsonrpc":"2.0","id":"getCompressionSignaturesForOwner/registry","result":{"context":{"slot":1010},"value":{"items":[{"signature":"1LzUa6tZ7vwC7MJzqkqTj13LtwYRN7qhZoEbGLCtRssPWjzvf2aNyLYBH4yHjudJ8jeVe4HoHhYmNpN4Wo23Cyy","slot":1007,"blockTime":1700000402},{"signature":"dovnU4h563WvoPwePbJU8sFBVFjJiCWGsKpNCb2Jrg1Y4cbXDCfDVPZKyDozjZ6rVFmTcwdwgVSVvsxDdBsZLu4","slot":1000,"blockTime":1700000400}],"cursor":null}}}
