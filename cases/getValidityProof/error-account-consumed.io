// description: a consumed account has no proof
// clauses: 4.2-M17, 4.3-R3, 4.3-R4, 3.2-R3, 7-C2
// mode: invariant:error
// scenario: default
>> {"jsonrpc":"2.0","id":"getValidityProof/error-account-consumed","method":"getValidityProof","params":{"hashes":["2MT4GUrxViRWcUwcD3GtvJAoAEsXsKgozi54Pwdvcqw1"]}}
<< {"jsonrpc":"2.0","id":"getValidityProof/error-account-consumed","error":{"code":-32000,"message":"Record Not Found: account 2MT4GUrxViRWcUwcD3GtvJAoAEsXsKgozi54Pwdvcqw1 has been consumed"}}
