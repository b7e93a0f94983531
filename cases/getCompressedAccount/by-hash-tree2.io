// description: an account of the second state tree
// clauses: 4.2-M1, 2.3-R1
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedAccount/by-hash-tree2","method":"getCompressedAccount","params":{"hash":"386tyLWJDiJo6y5TfG7vEgQgbzMDTNVJZ5NWieYW5AX5"}}
<< {"jsonrpc":"2.0","id":"getCompressedAccount/by-hash-tree2","result":{"context":{"slot":1010},"value":{"hash":"386tyLWJDiJo6y5TfG7vEgQgbzMDTNVJZ5NWieYW5AX5","lamports":4000,"leafIndex":0,"owner":"HXqWBGAti3PL6VGuVEjUEeTUQ1tMmHmbkovbAJBBUiGE","slotCreated":1000,"tree":"smt2rJAFdyJJupwaGAzAaZQ3SMbnn3QxrmvPrjvStos","address":null,"data":{"data":"CAkKCw==","dataHash":"12hjJGga6RRzBbm9kkAjQboztTKUbcY3zyE6dBvAV6xf","discriminator":1},"seq":1}}}
