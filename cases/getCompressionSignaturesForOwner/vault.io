// description: transactions that touched vault's accounts
// clauses: 4.2-M12, 2.8-R1
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressionSignaturesForOwner/vault","method":"getCompressionSignaturesForOwner","params":{"owner":"5cGRHSPezz5RxAARb15ctts5agaE2BZq9Nyk4hz3A97j"}}
<< {"jsonrpc":"2.0","id":"getCompressionSignaturesForOwner/vault","result":{"context":{"slot":1010},"value":{"items":[{"signature":"3ZkV7nvRx7UKQ6eayVZukgdfuxBczb7zRAv49BiAbdURmVqadsesXcPoWTYW7ThbMheL61qtfmRViuA1DJ1DM5Dj","slot":1005,"blockTime":1700000402}],"cursor":null}}}
