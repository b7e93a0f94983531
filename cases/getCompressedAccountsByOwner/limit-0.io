// description: limit 0: the spec is silent
// clauses: 4.2-M5, 4.2-N3, 8-S2
// mode: schema
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedAccountsByOwner/limit-0","method":"getCompressedAccountsByOwner","params":{"owner":"HXqWBGAti3PL6VGuVEjUEeTUQ1tMmHmbkovbAJBBUiGE","limit":0}}
<< {"jsonrpc":"2.0","id":"getCompressedAccountsByOwner/limit-0","result":{"context":{"slot":1010},"value":{"items":[],"cursor":null}}}
