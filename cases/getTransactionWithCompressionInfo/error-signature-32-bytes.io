// description: 32 bytes are not a Signature
// clauses: 4.2-M10, 2.1-R5
// mode: invariant:error
// scenario: default
>> {"jsonrpc":"2.0","id":"getTransactionWithCompressionInfo/error-signature-32-bytes","method":"getTransactionWithCompressionInfo","params":{"signature":"3b87PJpKvNqc91TG3Ut2u4uFGWfQEMRTStSDJow1Ewxu"}}
<< {"jsonrpc":"2.0","id":"getTransactionWithCompressionInfo/error-signature-32-bytes","error":{"code":-32602,"message":"Invalid params: /signature: \"3b87PJpKvNqc91TG3Ut2u4uFGWfQEMRTStSDJow1Ewxu\" does not match \"^[1-9A-HJ-NP-Za-km-z]{64,88}$\""}}
