// description: neither of address and hash is refused
// clauses: 4.2-M9
// mode: invariant:error
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedTokenAccountBalance/error-exactly-one-of-neither","method":"getCompressedTokenAccountBalance","params":{}}
<< {"jsonrpc":"2.0","id":"getCompressedTokenAccountBalance/error-exactly-one-of-neither","error":{"code":-32000,"message":"Validation Error: Either address or hash must be provided"}}
