// description: no account matches: an empty page
// clauses: 4.2-M5, 2.11-R4
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedAccountsByOwner/filter-memcmp-none","method":"getCompressedAccountsByOwner","params":{"owner":"HXqWBGAti3PL6VGuVEjUEeTUQ1tMmHmbkovbAJBBUiGE","filters":[{"memcmp":{"offset":0,"bytes":"33"}}]}}
<< {"jsonrpc":"2.0","id":"getCompressedAccountsByOwner/filter-memcmp-none","result":{"context":{"slot":1010},"value":{"items":[],"cursor":null}}}
