// description: one transaction
// clauses: 4.2-M11, 2.8-R1
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressionSignaturesForAddress/one","method":"getCompressionSignaturesForAddress","params":{"address":"14GQVR7MwXTjDhtdEEYKXFfCafy9kmwmKDgkTsk8Z3PV"}}
<< {"jsonrpc":"2.0","id":"getCompressionSignaturesForAddress/one","result":{"context":{"slot":1010},"value":{"items":[{"signature":"2qZP8JpyhVnHdf8eF543rGCf7s5eSR2AJha5nPCibwBeByKkK1YFgTGuvVerpG76CHNJBdhYPe534DyjFLTKHzdx","slot":1002,"blockTime":1700000400}],"cursor":null}}}
