// description: a program account: 0 as observed
// clauses: 4.2-M9
// mode: schema
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedTokenAccountBalance/not-a-token-account","method":"getCompressedTokenAccountBalance","params":{"hash":"3b87PJpKvNqc91TG3Ut2u4uFGWfQEMRTStSDJow1Ewxu"}}
<< {"jsonrpc":"2.0","id":"getCompressedTokenAccountBalance/not-a-token-account","result":{"context":{"slot":1010},"value":{"amount":0}}}
