// description: one consumed account fails the whole proof
// clauses: 4.2-M17, 4.3-R3, 7-C2
// mode: invariant:error
// scenario: default
>> {"jsonrpc":"2.0","id":"getValidityProof/error-account-consumed-among-live","method":"getValidityProof","params":{"hashes":["3b87PJpKvNqc91TG3Ut2u4uFGWfQEMRTStSDJow1Ewxu","1rUKr19HxtLKxHPBmf6wSDvP3LPeJ8hP8vCbiPQvhLB"]}}
<< {"jsonrpc":"2.0","id":"getValidityProof/error-account-consumed-among-live","error":{"code":-32000,"message":"Record Not Found: account 1rUKr19HxtLKxHPBmf6wSDvP3LPeJ8hP8vCbiPQvhLB has been consumed"}}
