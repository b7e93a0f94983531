// description: opened, then consumed
// clauses: 4.2-M11, 3.2-R2
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressionSignaturesForAddress/closed-address","method":"getCompressionSignaturesForAddress","params":{"address":"13nowQp9Df4tNJnAbz2Uc91X9RLFLGBCg61TwfnU4JEd"}}
<< {"jsonrpc":"2.0","id":"getCompressionSignaturesForAddress/closed-address","result":{"context":{"slot":1010},"value":{"items":[{"signature":"3TDJx3ceES9q66EQjSJJafSpQq6ZeMuL7KTDYnaAgxXG323Q9UM8YQzyQRHWPkDLJzqCgiaZuCUzu8tc4QadDe7P","slot":1008,"blockTime":1700000403},{"signature":"qfMxYgV6WkTv47tFNVwNk4YYmLwhLusjvf5znjDPK4gv1B5mj4g456g5a52DGziu8LGWm63Ttz2EH5noD2Rnm7R","slot":1000,"blockTime":1700000400}],"cursor":null}}}
