// description: an unknown account: 0 as observed
// clauses: 4.2-M9
// mode: schema
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedTokenAccountBalance/unknown","method":"getCompressedTokenAccountBalance","params":{"address":"143yczMDMXsZTJE9AnHveBWq8mvSBzruCZyEHLSj6DFf"}}
<< {"jsonrpc":"2.0","id":"getCompressedTokenAccountBalance/unknown","result":{"context":{"slot":1010},"value":{"amount":0}}}
