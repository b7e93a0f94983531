// description: both members null is neither given
// clauses: 4.2-M1, 7-C1, 4.2-N1
// mode: invariant:error
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedAccount/error-exactly-one-of-both-null","method":"getCompressedAccount","params":{"address":null,"hash":null}}
<< {"jsonrpc":"2.0","id":"getCompressedAccount/error-exactly-one-of-both-null","error":{"code":-32000,"message":"Validation Error: Either address or hash must be provided"}}
