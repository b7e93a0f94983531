// description: first page, 2 per page: a full page carries a cursor
// clauses: 4.2-M13, 4.1-R8, 4.2-N3
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressionSignaturesForTokenOwner/page-1","method":"getCompressionSignaturesForTokenOwner","params":{"owner":"8eAxeH6fqhxY2h35zVALPRAJSt583UdptVFvKw3R1Yzm","limit":2}}
<< {"jsonrpc":"2.0","id":"getCompressionSignaturesForTokenOwner/page-1","result":{"context":{"slot":1010},"value":{"items":[{"signature":"5t4YYE5ZNh4ueDf8K69nGsYHh4aWJCip9XWH3GnnMf7jnhqtqo3Vzs6geXpGuNk85RXvSY9KDfCbpExwMuLNV5XV","slot":1004,"blockTime":1700000401},{"signature":"5RewsHdcGnvGVkGFoxNe2r7cAoBNA8vWZQbvhK3EjWGgjkvFWhSGN4PKcb5ve7UPqRhGnmPYoh2VKK9XzHkicGWL","slot":1003,"blockTime":1700000401}],"cursor":"4UCAQPtRxnnih1pp5La8bRPh8ZB79fQt3bWi3hPkJ6KRCta7EkAZ36nhq9x8kuycXJHVvkDi2Q3b1emxQdrsAa2oWax97noXoa8"}}}
