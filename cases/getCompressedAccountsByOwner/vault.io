// description: lamports above 2^53 in a list
// clauses: 4.2-M5, 2.1-R3
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedAccountsByOwner/vault","method":"getCompressedAccountsByOwner","params":{"owner":"5cGRHSPezz5RxAARb15ctts5agaE2BZq9Nyk4hz3A97j"}}
<< {"jsonrpc":"2.0","id":"getCompressedAccountsByOwner/vault","result":{"context":{"slot":1010},"value":{"items":[{"hash":"QBvo3Jiz35VVZsXEZrt4qgiGjCSkimE5g4SCMtY1EW6","lamports":9007199254740993,"leafIndex":19,"owner":"5cGRHSPezz5RxAARb15ctts5agaE2BZq9Nyk4hz3A97j","slotCreated":1005,"tree":"smt1NamzXdq4AMqS2fS2F1i5KTYPZRhoHgWx38d8WsT","address":null,"data":null,"seq":22},{"hash":"uRHBkuVuMvcu6nXJmkWoKyyQTczhtV9K8utML8cdYUg","lamports":9223372036854775808,"leafIndex":3,"owner":"5cGRHSPezz5RxAARb15ctts5agaE2BZq9Nyk4hz3A97j","slotCreated":1005,"tree":"smt2rJAFdyJJupwMKAqTNAJwvjhmiZ4JYGZmbVRw1Ho","address":null,"data":null,"seq":4}],"cursor":null}}}
