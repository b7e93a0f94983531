// description: params are an array of Pubkey
// clauses: 4.2-M16, 4.1-R5
// mode: invariant:error
// scenario: default
>> {"jsonrpc":"2.0","id":"getMultipleNewAddressProofs/error-not-an-array","method":"getMultipleNewAddressProofs","params":{"addresses":["143yczMDMXsZTJE9AnHveBWq8mvSBzruCZyEHLSj6DFf"]}}
<< {"jsonrpc":"2.0","id":"getMultipleNewAddressProofs/error-not-an-array","error":{"code":-32602,"message":"Invalid params: /: {\"addresses\":[\"143yczMDMXsZTJE9AnHveBWq8mvSBzruCZyEHLSj6DFf\"]} is not of type \"array\""}}
