// description: an account of the second state tree
// clauses: 4.2-M1, 2.3-R1
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedAccount/by-hash-tree2","method":"getCompressedAccount","params":{"hash":"2QQdESHLFgSXxZbUerpnBab3F88eirEDd9rxdUov56HH"}}
<< {"jsonrpc":"2.0","id":"getCompressedAccount/by-hash-tree2","result":{"context":{"slot":1010},"value":{"hash":"2QQdESHLFgSXxZbUerpnBab3F88eirEDd9rxdUov56HH","lamports":4000,"leafIndex":0,"owner":"HXqWBGAti3PL6VGuVEjUEeTUQ1tMmHmbkovbAJBBUiGE","slotCreated":1000,"tree":"smt2rJAFdyJJupwMKAqTNAJwvjhmiZ4JYGZmbVRw1Ho","address":null,"data":{"data":"CAkKCw==","dataHash":"12hjJGga6RRzBbm9kkAjQboztTKUbcY3zyE6dBvAV6xf","discriminator":1},"seq":1}}}
