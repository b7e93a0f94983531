// description: page 2, 1 per page, with the cursor page 1 answered
// clauses: 4.2-M11, 4.1-R8, 4.2-N3
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressionSignaturesForAddress/page-2","method":"getCompressionSignaturesForAddress","params":{"address":"1qd7ttTRWA21yuCcancFC2wzDKLwywwN36KDi81x6x3","limit":1,"cursor":"4Xcn2LPgs711K6YnztSh3B56KEwYa3nmoyjFonvg4NZHXXaQSW2sdbeTWTj9iJZtQ1gCCutzNoGb8eYoESr8oBVjsjd8Rbq7iuR"}}
<< {"jsonrpc":"2.0","id":"getCompressionSignaturesForAddress/page-2","result":{"context":{"slot":1010},"value":{"items":[{"signature":"dovnU4h563WvoPwePbJU8sFBVFjJiCWGsKpNCb2Jrg1Y4cbXDCfDVPZKyDozjZ6rVFmTcwdwgVSVvsxDdBsZLu4","slot":1000,"blockTime":1700000400}],"cursor":"4RdCgwWVHZ8P7soCXTiDoVP6ZzL1BdSUAj4gzXEty48b3Xgygwn18qMgCEmwXLAGjUtcck8b71Fx1kDmoLGJ8agNQCzBe9Qs9Kc"}}}
