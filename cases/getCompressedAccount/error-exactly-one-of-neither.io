// description: neither of address and hash is refused
// clauses: 4.2-M1, 7-C1, 4.2-N1
// mode: invariant:error
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedAccount/error-exactly-one-of-neither","method":"getCompressedAccount","params":{}}
<< {"jsonrpc":"2.0","id":"getCompressedAccount/error-exactly-one-of-neither","error":{"code":-32000,"message":"Validation Error: Either address or hash must be provided"}}
