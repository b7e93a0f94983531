// description: limit 1 answers one item
// clauses: 4.2-M14, 4.2-N3
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getLatestCompressionSignatures/limit-1","method":"getLatestCompressionSignatures","params":{"limit":1}}
<< {"jsonrpc":"2.0","id":"getLatestCompressionSignatures/limit-1","result":{"context":{"slot":1010},"value":{"items":[{"signature":"3TDJx3ceES9q66EQjSJJafSpQq6ZeMuL7KTDYnaAgxXG323Q9UM8YQzyQRHWPkDLJzqCgiaZuCUzu8tc4QadDe7P","slot":1008,"blockTime":1700000403}],"cursor":"4YURvpX16BZ924Y7PAqwP5ifW2DbJLoWUJCff2nZgvmspYUxmriiaTxNzddmn5C7acexFB6FZbUVMETGoFgoiT3kDBKrb5cqQFF"}}}
