// description: 0 hashes: a count outside the allowed ones
// clauses: 4.2-M17, 8-L1, 4.3-R1, 7-C2
// mode: invariant:error
// scenario: default
>> {"jsonrpc":"2.0","id":"getValidityProof/limit-hashes-0","method":"getValidityProof","params":{"hashes":[]}}
<< {"jsonrpc":"2.0","id":"getValidityProof/limit-hashes-0","error":{"code":-32602,"message":"Invalid params: no hashes and no new addresses to prove"}}
