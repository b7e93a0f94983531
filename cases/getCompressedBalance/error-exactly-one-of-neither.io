// description: neither of address and hash is refused
// clauses: 4.2-M3, 4.2-M2
// mode: invariant:error
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedBalance/error-exactly-one-of-neither","method":"getCompressedBalance","params":{}}
<< {"jsonrpc":"2.0","id":"getCompressedBalance/error-exactly-one-of-neither","error":{"code":-32000,"message":"Validation Error: Either address or hash must be provided"}}
