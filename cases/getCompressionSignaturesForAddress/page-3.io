// description: page 3, 1 per page, with the cursor page 2 answered
// clauses: 4.2-M11, 4.1-R8, 4.2-N3
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressionSignaturesForAddress/page-3","method":"getCompressionSignaturesForAddress","params":{"address":"1qd7ttTRWA21yuCcancFC2wzDKLwywwN36KDi81x6x3","limit":1,"cursor":"4RdCgwWVHZ8P7soCXTiDoVP6ZzL1BdSUAj4gzXEty48b3Xgygwn18qMgCEmwXLAGjUtcck8b71Fx1kDmoLGJ8agNQCzBe9Qs9Kc"}}
<< {"jsonrpc":"2.0","id":"getCompressionSignaturesForAddress/page-3","result":{"context":{"slot":1010},"value":{"items":[],"cursor":null}}}
