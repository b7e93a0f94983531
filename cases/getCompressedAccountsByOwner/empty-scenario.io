// description: an indexer that saw nothing: no accounts
// clauses: 4.2-M5, 7-N3
// mode: invariant:empty-items
// scenario: empty
>> {"jsonrpc":"2.0","id":"getCompressedAccountsByOwner/empty-scenario","method":"getCompressedAccountsByOwner","params":{"owner":"HXqWBGAti3PL6VGuVEjUEeTUQ1tMmHmbkovbAJBBUiGE"}}
<< {"jsonrpc":"2.0","id":"getCompressedAccountsByOwner/empty-scenario","result":{"context":{"slot":0},"value":{"items":[],"cursor":null}}}
