// description: page 2, 4 per page, with the cursor page 1 answered
// clauses: 4.2-M14, 4.1-R8, 4.2-N3
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getLatestCompressionSignatures/page-2","method":"getLatestCompressionSignatures","params":{"limit":4,"cursor":"4VuUDN94QwtsMJhkQAgwyLwwtjrtxMmqKry92sKv1qFe3vYkjeYVzkNHXpJ4S2iuZBrTbJ7VjcEszaXpdfKsFwExFLLpfRfM6iM"}}
<< {"jsonrpc":"2.0","id":"getLatestCompressionSignatures/page-2","result":{"context":{"slot":1010},"value":{"items":[{"signature":"5t4YYE5ZNh4ueDf8K69nGsYHh4aWJCip9XWH3GnnMf7jnhqtqo3Vzs6geXpGuNk85RXvSY9KDfCbpExwMuLNV5XV","slot":1004,"blockTime":1700000401},{"signature":"5RewsHdcGnvGVkGFoxNe2r7cAoBNA8vWZQbvhK3EjWGgjkvFWhSGN4PKcb5ve7UPqRhGnmPYoh2VKK9XzHkicGWL","slot":1003,"blockTime":1700000401},{"signature":"2qZP8JpyhVnHdf8eF543rGCf7s5eSR2AJha5nPCibwBeByKkK1YFgTGuvVerpG76CHNJBdhYPe534DyjFLTKHzdx","slot":1002,"blockTime":1700000400},{"signature":"qfMxYgV6WkTv47tFNVwNk4YYmLwhLusjvf5znjDPK4gv1B5mj4g456g5a52DGziu8LGWm63Ttz2EH5noD2Rnm7R","slot":1000,"blockTime":1700000400}],"cursor":"4RdCgwWVHZ8PKjENc5WFECL5piGcAY5NmvN4GcTHbmW46rxcH5y5bE348oGC3CB7KC1NDbLoeSszepipwUfpM5G6kQpmDyy6ZXy"}}}
