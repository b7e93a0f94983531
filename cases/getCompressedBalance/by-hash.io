// description: lamports of an account, by hash
// clauses: 4.2-M3, 4.1-R7
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedBalance/by-hash","method":"getCompressedBalance","params":{"hash":"3b87PJpKvNqc91TG3Ut2u4uFGWfQEMRTStSDJow1Ewxu"}}
<< {"jsonrpc":"2.0","id":"getCompressedBalance/by-hash","result":{"context":{"slot":1010},"value":1000}}
