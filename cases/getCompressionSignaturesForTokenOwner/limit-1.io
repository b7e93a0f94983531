// description: limit 1 answers one item
// clauses: 4.2-M13, 4.2-N3
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressionSignaturesForTokenOwner/limit-1","method":"getCompressionSignaturesForTokenOwner","params":{"owner":"8eAxeH6fqhxY2h35zVALPRAJSt583UdptVFvKw3R1Yzm","limit":1}}
<< {"jsonrpc":"2.0","id":"getCompressionSignaturesForTokenOwner/limit-1","result":{"context":{"slot":1010},"value":{"items":[{"signature":"5t4YYE5ZNh4ueDf8K69nGsYHh4aWJCip9XWH3GnnMf7jnhqtqo3Vzs6geXpGuNk85RXvSY9KDfCbpExwMuLNV5XV","slot":1004,"blockTime":1700000401}],"cursor":"4V3pJt1kBsLpQX6KvZAoXFnWorDvRC6jnttaEBNYzfMBs9r41cSDcAm2kx6s6yHK4xC4mXE8UAGiMymtfgBr9EFB1mpF14dwroh"}}}
