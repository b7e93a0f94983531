// description: member names are case-sensitive: `Hash` names no member, so neither is given
// clauses: 4.2-M1, 7-C1, 4.1-R9
// mode: invariant:error
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedAccount/error-exactly-one-of-case","method":"getCompressedAccount","params":{"Hash":"3b87PJpKvNqc91TG3Ut2u4uFGWfQEMRTStSDJow1Ewxu"}}
<< {"jsonrpc":"2.0","id":"getCompressedAccount/error-exactly-one-of-case","error":{"code":-32000,"message":"Validation Error: Either address or hash must be provided"}}
