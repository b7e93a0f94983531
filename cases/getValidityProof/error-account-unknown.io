// description: an unknown account has no proof
// clauses: 4.2-M17, 4.3-R3, 7-C2
// mode: invariant:error
// scenario: default
>> {"jsonrpc":"2.0","id":"getValidityProof/error-account-unknown","method":"getValidityProof","params":{"hashes":["4wBqpZM9xaSheZzJSMawUKKwhdpChKbZ5eu5ky4Vigw"]}}
<< {"jsonrpc":"2.0","id":"getValidityProof/error-account-unknown","error":{"code":-32000,"message":"Record Not Found: account 4wBqpZM9xaSheZzJSMawUKKwhdpChKbZ5eu5ky4Vigw does not exist"}}
