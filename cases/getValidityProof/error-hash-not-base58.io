// description: a hash that is not base58
// clauses: 4.2-M17, 4.3-P1, 2.1-R2
// mode: invariant:error
// scenario: default
// ambiguity: error-http-status
>> {"jsonrpc":"2.0","id":"getValidityProof/error-hash-not-base58","method":"getValidityProof","params":{"hashes":["hash"]}}
<< {"jsonrpc":"2.0","id":"getValidityProof/error-hash-not-base58","error":{"code":-32602,"message":"Invalid params: /hashes/0: \"hash\" does not match \"^[1-9A-HJ-NP-Za-km-z]{32,44}$\""}}
