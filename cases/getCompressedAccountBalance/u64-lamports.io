// description: 2^63 lamports, exact; a null address is absent
// clauses: 4.2-M2, 2.1-R3
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedAccountBalance/u64-lamports","method":"getCompressedAccountBalance","params":{"address":null,"hash":"uRHBkuVuMvcu6nXJmkWoKyyQTczhtV9K8utML8cdYUg"}}
<< {"jsonrpc":"2.0","id":"getCompressedAccountBalance/u64-lamports","result":{"context":{"slot":1010},"value":9223372036854775808}}
