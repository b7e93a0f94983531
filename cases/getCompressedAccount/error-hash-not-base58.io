// description: a hash that is not base58
// clauses: 4.2-M1, 2.1-R2
// mode: invariant:error
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedAccount/error-hash-not-base58","method":"getCompressedAccount","params":{"hash":"0OIlPJpKvNqc91TG3Ut2u4uFGWfQEMRTStSDJow1Ewxu"}}
<< {"jsonrpc":"2.0","id":"getCompressedAccount/error-hash-not-base58","error":{"code":-32602,"message":"Invalid params: /hash: \"0OIlPJpKvNqc91TG3Ut2u4uFGWfQEMRTStSDJow1Ewxu\" is not valid under any of the schemas listed in the 'anyOf' keyword"}}
