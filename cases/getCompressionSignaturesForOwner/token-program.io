// description: the token program as owner
// clauses: 4.2-M12
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressionSignaturesForOwner/token-program","method":"getCompressionSignaturesForOwner","params":{"owner":"cTokenmWW8bLPjZEBAUgYy3zKxQZW6VKi7bqNFEVv3m"}}
<< {"jsonrpc":"2.0","id":"getCompressionSignaturesForOwner/token-program","result":{"context":{"slot":1010},"value":{"items":[{"signature":"1LzUa6tZ7vwC7MJzqkqTj13LtwYRN7qhZoEbGLCtRssPWjzvf2aNyLYBH4yHjudJ8jeVe4HoHhYmNpN4Wo23Cyy","slot":1007,"blockTime":1700000402},{"signature":"5t4YYE5ZNh4ueDf8K69nGsYHh4aWJCip9XWH3GnnMf7jnhqtqo3Vzs6geXpGuNk85RXvSY9KDfCbpExwMuLNV5XV","slot":1004,"blockTime":1700000401},{"signature":"5RewsHdcGnvGVkGFoxNe2r7cAoBNA8vWZQbvhK3EjWGgjkvFWhSGN4PKcb5ve7UPqRhGnmPYoh2VKK9XzHkicGWL","slot":1003,"blockTime":1700000401},{"signature":"2qZP8JpyhVnHdf8eF543rGCf7s5eSR2AJha5nPCibwBeByKkK1YFgTGuvVerpG76CHNJBdhYPe534DyjFLTKHzdx","slot":1002,"blockTime":1700000400}],"cursor":null}}}
