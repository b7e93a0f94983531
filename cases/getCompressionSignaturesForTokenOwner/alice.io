// description: transactions that touched alice's token accounts
// clauses: 4.2-M13, 2.8-R1
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressionSignaturesForTokenOwner/alice","method":"getCompressionSignaturesForTokenOwner","params":{"owner":"Dwqd3QZ2eNTqQYf1VAU1CJQaQk6qoCUwtYeHbjdADGcK"}}
<< {"jsonrpc":"2.0","id":"getCompressionSignaturesForTokenOwner/alice","result":{"context":{"slot":1010},"value":{"items":[{"signature":"1LzUa6tZ7vwC7MJzqkqTj13LtwYRN7qhZoEbGLCtRssPWjzvf2aNyLYBH4yHjudJ8jeVe4HoHhYmNpN4Wo23Cyy","slot":1007,"blockTime":1700000402},{"signature":"5RewsHdcGnvGVkGFoxNe2r7cAoBNA8vWZQbvhK3EjWGgjkvFWhSGN4PKcb5ve7UPqRhGnmPYoh2VKK9XzHkicGWL","slot":1003,"blockTime":1700000401},{"signature":"2qZP8JpyhVnHdf8eF543rGCf7s5eSR2AJha5nPCibwBeByKkK1YFgTGuvVerpG76CHNJBdhYPe534DyjFLTKHzdx","slot":1002,"blockTime":1700000400}],"cursor":null}}}
