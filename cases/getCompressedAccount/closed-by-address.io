// description: the address of a consumed account finds nothing
// clauses: 4.2-M1, 7-N1, 3.2-R2
// mode: invariant:null-value
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedAccount/closed-by-address","method":"getCompressedAccount","params":{"address":"13nowQp9Df4tNJnAbz2Uc91X9RLFLGBCg61TwfnU4JEd"}}
<< {"jsonrpc":"2.0","id":"getCompressedAccount/closed-by-address","result":{"context":{"slot":1010},"value":null}}
