// description: page 3, 4 per page, with the cursor page 2 answered
// clauses: 4.2-M14, 4.1-R8, 4.2-N3
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getLatestCompressionSignatures/page-3","method":"getLatestCompressionSignatures","params":{"limit":4,"cursor":"4RdCgwWVHZ8PKjENc5WFECL5piGcAY5NmvN4GcTHbmW46rxcH5y5bE348oGC3CB7KC1NDbLoeSszepipwUfpM5G6kQpmDyy6ZXy"}}
<< {"jsonrpc":"2.0","id":"getLatestCompressionSignatures/page-3","result":{"context":{"slot":1010},"value":{"items":[{"signature":"dovnU4h563WvoPwePbJU8sFBVFjJiCWGsKpNCb2Jrg1Y4cbXDCfDVPZKyDozjZ6rVFmTcwdwgVSVvsxDdBsZLu4","slot":1000,"blockTime":1700000400}],"cursor":null}}}
