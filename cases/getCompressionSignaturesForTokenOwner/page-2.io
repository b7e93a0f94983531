// description: page 2, 2 per page, with the cursor page 1 answered
// clauses: 4.2-M13, 4.1-R8, 4.2-N3
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressionSignaturesForTokenOwner/page-2","method":"getCompressionSignaturesForTokenOwner","params":{"owner":"8eAxeH6fqhxY2h35zVALPRAJSt583UdptVFvKw3R1Yzm","limit":2,"cursor":"4UCAQPtRxnnih1pp5La8bRPh8ZB79fQt3bWi3hPkJ6KRCta7EkAZ36nhq9x8kuycXJHVvkDi2Q3b1emxQdrsAa2oWax97noXoa8"}}
<< {"jsonrpc":"2.0","id":"getCompressionSignaturesForTokenOwner/page-2","result":{"context":{"slot":1010},"value":{"items":[{"signature":"2qZP8JpyhVnHdf8eF543rGCf7s5eSR2AJha5nPCibwBeByKkK1YFgTGuvVerpG76CHNJBdhYPe534DyjFLTKHzdx","slot":1002,"blockTime":1700000400}],"cursor":null}}}
