// description: member names are case-sensitive: `Hash` is unknown
// clauses: 4.2-M2, 4.1-R10, 4.1-R9
// mode: invariant:error
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedAccountBalance/error-unknown-members-rejected-case","method":"getCompressedAccountBalance","params":{"Hash":"3b87PJpKvNqc91TG3Ut2u4uFGWfQEMRTStSDJow1Ewxu"}}
<< {"jsonrpc":"2.0","id":"getCompressedAccountBalance/error-unknown-members-rejected-case","error":{"code":-32602,"message":"Invalid params: /: Additional properties are not allowed ('Hash' was unexpected)"}}
