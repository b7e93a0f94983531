// description: an unknown account: 0 as observed, the spec is silent
// clauses: 4.2-M2, 4.1-R7
// mode: schema
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedAccountBalance/unknown-account","method":"getCompressedAccountBalance","params":{"address":"143yczMDMXsZTJE9AnHveBWq8mvSBzruCZyEHLSj6DFf"}}
<< {"jsonrpc":"2.0","id":"getCompressedAccountBalance/unknown-account","result":{"context":{"slot":1010},"value":0}}
