// description: an owner without accounts: 0
// clauses: 4.2-M4
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedBalanceByOwner/idle","method":"getCompressedBalanceByOwner","params":{"owner":"F599FAbtAE3HqoHu7NvP4EZb8QriURaNLUzF3feSmfFA"}}
<< {"jsonrpc":"2.0","id":"getCompressedBalanceByOwner/idle","result":{"context":{"slot":1010},"value":0}}
