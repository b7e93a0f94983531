// description: an unknown params member is refused
// clauses: 4.2-M3
// mode: invariant:error
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedBalance/error-unknown-members-rejected","method":"getCompressedBalance","params":{"hash":"3b87PJpKvNqc91TG3Ut2u4uFGWfQEMRTStSDJow1Ewxu","commitment":"final"}}
<< {"jsonrpc":"2.0","id":"getCompressedBalance/error-unknown-members-rejected","error":{"code":-32602,"message":"Invalid params: /: Additional properties are not allowed ('commitment' was unexpected)"}}
