// description: seq of an account of a v1 tree: an integer under every reading (a batched tree's may be null)
// clauses: 4.2-M1, 2.3-R1
// mode: schema
// scenario: default
// ambiguity: batched-seq
>> {"jsonrpc":"2.0","id":"getCompressedAccount/seq-of-a-v1-account","method":"getCompressedAccount","params":{"hash":"2QQdESHLFgSXxZbUerpnBab3F88eirEDd9rxdUov56HH"}}
<< {"jsonrpc":"2.0","id":"getCompressedAccount/seq-of-a-v1-account","result":{"context":{"slot":1010},"value":{"hash":"2QQdESHLFgSXxZbUerpnBab3F88eirEDd9rxdUov56HH","lamports":4000,"leafIndex":0,"owner":"HXqWBGAti3PL6VGuVEjUEeTUQ1tMmHmbkovbAJBBUiGE","slotCreated":1000,"tree":"smt2rJAFdyJJupwMKAqTNAJwvjhmiZ4JYGZmbVRw1Ho","address":null,"data":{"data":"CAkKCw==","dataHash":"12hjJGga6RRzBbm9kkAjQboztTKUbcY3zyE6dBvAV6xf","discriminator":1},"seq":1}}}
