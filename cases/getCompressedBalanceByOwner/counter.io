// description: the sum over an owner's live accounts
// clauses: 4.2-M4, 4.1-R7
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedBalanceByOwner/counter","method":"getCompressedBalanceByOwner","params":{"owner":"HXqWBGAti3PL6VGuVEjUEeTUQ1tMmHmbkovbAJBBUiGE"}}
<< {"jsonrpc":"2.0","id":"getCompressedBalanceByOwner/counter","result":{"context":{"slot":1010},"value":100000}}
