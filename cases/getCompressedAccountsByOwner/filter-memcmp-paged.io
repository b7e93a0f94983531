// description: a filter on the first listed account's first byte holds on every page: the accounts after it are left out
// clauses: 4.2-M5, 2.11-R4, 4.1-R8
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedAccountsByOwner/filter-memcmp-paged","method":"getCompressedAccountsByOwner","params":{"owner":"HXqWBGAti3PL6VGuVEjUEeTUQ1tMmHmbkovbAJBBUiGE","filters":[{"memcmp":{"offset":0,"bytes":"9"}}],"limit":1}}
<< {"jsonrpc":"2.0","id":"getCompressedAccountsByOwner/filter-memcmp-paged","result":{"context":{"slot":1010},"value":{"items":[{"hash":"2QQdESHLFgSXxZbUerpnBab3F88eirEDd9rxdUov56HH","lamports":4000,"leafIndex":0,"owner":"HXqWBGAti3PL6VGuVEjUEeTUQ1tMmHmbkovbAJBBUiGE","slotCreated":1000,"tree":"smt2rJAFdyJJupwMKAqTNAJwvjhmiZ4JYGZmbVRw1Ho","address":null,"data":{"data":"CAkKCw==","dataHash":"12hjJGga6RRzBbm9kkAjQboztTKUbcY3zyE6dBvAV6xf","discriminator":1},"seq":1}],"cursor":"2QQdESHLFgSXxZbUerpnBab3F88eirEDd9rxdUov56HH"}}}
