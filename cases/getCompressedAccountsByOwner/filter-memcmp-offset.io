// description: memcmp at offset 1
// clauses: 4.2-M5, 2.11-R4
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedAccountsByOwner/filter-memcmp-offset","method":"getCompressedAccountsByOwner","params":{"owner":"HXqWBGAti3PL6VGuVEjUEeTUQ1tMmHmbkovbAJBBUiGE","filters":[{"memcmp":{"offset":1,"bytes":"3"}}]}}
<< {"jsonrpc":"2.0","id":"getCompressedAccountsByOwner/filter-memcmp-offset","result":{"context":{"slot":1010},"value":{"items":[{"hash":"3Mwad5c3AQiTBC84bHtGWzapD2hZPgMfXXz7KVdo4jsv","lamports":5000,"leafIndex":5,"owner":"HXqWBGAti3PL6VGuVEjUEeTUQ1tMmHmbkovbAJBBUiGE","slotCreated":1002,"tree":"smt1NamzXdq4AMqS2fS2F1i5KTYPZRhoHgWx38d8WsT","address":null,"data":{"data":"AQIDBAUGBwgJCgsMDQ4PEA==","dataHash":"12zhigEH44ZzJsbEaMwRuLDfzCP5ytiNYxJpLLrj7RRh","discriminator":2},"seq":6}],"cursor":null}}}
