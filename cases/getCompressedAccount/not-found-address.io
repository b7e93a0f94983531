// description: an unknown address: a null value
// clauses: 4.2-M1, 7-N1
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedAccount/not-found-address","method":"getCompressedAccount","params":{"address":"143yczMDMXsZTJE9AnHveBWq8mvSBzruCZyEHLSj6DFf"}}
<< {"jsonrpc":"2.0","id":"getCompressedAccount/not-found-address","result":{"context":{"slot":1010},"value":null}}
