// description: discriminator u64 max, as an exact integer
// clauses: 4.2-M1, 2.1-R6, 2.4-R1
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedAccount/by-hash-u64-discriminator","method":"getCompressedAccount","params":{"hash":"aFqNHJXkWstAo7RAXRVts386s34WJTKyqV1cF9FnrPq"}}
<< {"jsonrpc":"2.0","id":"getCompressedAccount/by-hash-u64-discriminator","result":{"context":{"slot":1010},"value":{"hash":"aFqNHJXkWstAo7RAXRVts386s34WJTKyqV1cF9FnrPq","lamports":0,"leafIndex":4,"owner":"6MiscGj9voYhAbkJvYpjLcCVR9kxqwJs5uo2RXF7BL3y","slotCreated":1000,"tree":"smt1NamzXdq4AMqS2fS2F1i5KTYPZRhoHgWx38d8WsT","address":"14FFV8JdMnbZJjpTwGY2Pavb4doYXECbDsRxb23DYqYJ","data":{"data":"AA==","dataHash":"12ERFwXqezgSKgUwVCmu8SG1sqo6UCfir7iwdTTMccGF","discriminator":18446744073709551615},"seq":5}}}
