// description: a hash of 16 bytes is not a Hash
// clauses: 4.2-M1, 2.1-R2
// mode: invariant:error
// scenario: default
// ambiguity: error-codes
>> {"jsonrpc":"2.0","id":"getCompressedAccount/error-hash-16-bytes","method":"getCompressedAccount","params":{"hash":"8DfbjXLth7APvt3qQPgtf"}}
<< {"jsonrpc":"2.0","id":"getCompressedAccount/error-hash-16-bytes","error":{"code":-32602,"message":"Invalid params: /hash: \"8DfbjXLth7APvt3qQPgtf\" is not valid under any of the schemas listed in the 'anyOf' keyword"}}
