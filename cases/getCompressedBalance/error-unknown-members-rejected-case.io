// description: member names are case-sensitive: `Hash` is unknown
// clauses: 4.2-M3, 4.1-R9
// mode: invariant:error
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedBalance/error-unknown-members-rejected-case","method":"getCompressedBalance","params":{"Hash":"3b87PJpKvNqc91TG3Ut2u4uFGWfQEMRTStSDJow1Ewxu"}}
<< {"jsonrpc":"2.0","id":"getCompressedBalance/error-unknown-members-rejected-case","error":{"code":-32602,"message":"Invalid params: /: Additional properties are not allowed ('Hash' was unexpected)"}}
