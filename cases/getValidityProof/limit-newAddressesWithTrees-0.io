// description: 0 newAddressesWithTrees: a count outside the allowed ones
// clauses: 4.2-M17, 8-L2, 4.3-R2, 7-C2
// mode: invariant:error
// scenario: default
>> {"jsonrpc":"2.0","id":"getValidityProof/limit-newAddressesWithTrees-0","method":"getValidityProof","params":{"newAddressesWithTrees":[]}}
<< {"jsonrpc":"2.0","id":"getValidityProof/limit-newAddressesWithTrees-0","error":{"code":-32602,"message":"Invalid params: no hashes and no new addresses to prove"}}
