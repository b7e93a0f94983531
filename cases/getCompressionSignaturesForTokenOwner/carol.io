// description: transactions that touched carol's token accounts
// clauses: 4.2-M13, 2.8-R1
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressionSignaturesForTokenOwner/carol","method":"getCompressionSignaturesForTokenOwner","params":{"owner":"7Qiv9inQHzZjdVUwqsHhpXuVxa4yJJqfCf4nhyEbzAdT"}}
<< {"jsonrpc":"2.0","id":"getCompressionSignaturesForTokenOwner/carol","result":{"context":{"slot":1010},"value":{"items":[{"signature":"5t4YYE5ZNh4ueDf8K69nGsYHh4aWJCip9XWH3GnnMf7jnhqtqo3Vzs6geXpGuNk85RXvSY9KDfCbpExwMuLNV5XV","slot":1004,"blockTime":1700000401},{"signature":"5RewsHdcGnvGVkGFoxNe2r7cAoBNA8vWZQbvhK3EjWGgjkvFWhSGN4PKcb5ve7UPqRhGnmPYoh2VKK9XzHkicGWL","slot":1003,"blockTime":1700000401}],"cursor":null}}}
