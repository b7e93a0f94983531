// description: limit 1000, the observed maximum, is accepted
// clauses: 4.2-M13, 4.2-N3, 8-S2
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressionSignaturesForTokenOwner/limit-1000","method":"getCompressionSignaturesForTokenOwner","params":{"owner":"8eAxeH6fqhxY2h35zVALPRAJSt583UdptVFvKw3R1Yzm","limit":1000}}
<< {"jsonrpc":"2.0","id":"getCompressionSignaturesForTokenOwner/limit-1000","result":{"context":{"slot":1010},"value":{"items":[{"signature":"5t4YYE5ZNh4ueDf8K69nGsYHh4aWJCip9XWH3GnnMf7jnhqtqo3Vzs6geXpGuNk85RXvSY9KDfCbpExwMuLNV5XV","slot":1004,"blockTime":1700000401},{"signature":"5RewsHdcGnvGVkGFoxNe2r7cAoBNA8vWZQbvhK3EjWGgjkvFWhSGN4PKcb5ve7UPqRhGnmPYoh2VKK9XzHkicGWL","slot":1003,"blockTime":1700000401},{"signature":"2qZP8JpyhVnHdf8eF543rGCf7s5eSR2AJha5nPCibwBeByKkK1YFgTGuvVerpG76CHNJBdhYPe534DyjFLTKHzdx","slot":1002,"blockTime":1700000400}],"cursor":null}}}
