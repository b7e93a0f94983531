// description: an address stays taken after its account is consumed
// clauses: 4.2-M16
// mode: invariant:error
// scenario: default
>> {"jsonrpc":"2.0","id":"getMultipleNewAddressProofs/error-address-exists-closed","method":"getMultipleNewAddressProofs","params":["143yczMDMXsZTJE9AnHveBWq8mvSBzruCZyEHLSj6DFf","13nowQp9Df4tNJnAbz2Uc91X9RLFLGBCg61TwfnU4JEd"]}
<< {"jsonrpc":"2.0","id":"getMultipleNewAddressProofs/error-address-exists-closed","error":{"code":-32000,"message":"Validation Error: address 13nowQp9Df4tNJnAbz2Uc91X9RLFLGBCg61TwfnU4JEd already exists"}}
