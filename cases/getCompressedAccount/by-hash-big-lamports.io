// description: lamports 2^63 as an exact integer
// clauses: 4.2-M1, 2.3-R1
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedAccount/by-hash-big-lamports","method":"getCompressedAccount","params":{"hash":"uRHBkuVuMvcu6nXJmkWoKyyQTczhtV9K8utML8cdYUg"}}
<< {"jsonrpc":"2.0","id":"getCompressedAccount/by-hash-big-lamports","result":{"context":{"slot":1010},"value":{"hash":"uRHBkuVuMvcu6nXJmkWoKyyQTczhtV9K8utML8cdYUg","lamports":9223372036854775808,"leafIndex":3,"owner":"5cGRHSPezz5RxAARb15ctts5agaE2BZq9Nyk4hz3A97j","slotCreated":1005,"tree":"smt2rJAFdyJJupwMKAqTNAJwvjhmiZ4JYGZmbVRw1Ho","address":null,"data":null,"seq":4}}}
