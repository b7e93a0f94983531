// description: a sum above 2^63, exact
// clauses: 4.2-M4, 2.1-R3
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedBalanceByOwner/vault-big","method":"getCompressedBalanceByOwner","params":{"owner":"5cGRHSPezz5RxAARb15ctts5agaE2BZq9Nyk4hz3A97j"}}
<< {"jsonrpc":"2.0","id":"getCompressedBalanceByOwner/vault-big","result":{"context":{"slot":1010},"value":9232379236109516801}}
