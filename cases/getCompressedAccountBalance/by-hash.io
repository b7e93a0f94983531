// description: lamports of an account, by hash
// clauses: 4.2-M2, 4.1-R7
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedAccountBalance/by-hash","method":"getCompressedAccountBalance","params":{"hash":"3b87PJpKvNqc91TG3Ut2u4uFGWfQEMRTStSDJow1Ewxu"}}
<< {"jsonrpc":"2.0","id":"getCompressedAccountBalance/by-hash","result":{"context":{"slot":1010},"value":1000}}
