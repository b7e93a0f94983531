// description: page 3, 3 per page, with the cursor page 2 answered
// clauses: 4.2-M12, 4.1-R8, 4.2-N3
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressionSignaturesForOwner/page-3","method":"getCompressionSignaturesForOwner","params":{"owner":"HXqWBGAti3PL6VGuVEjUEeTUQ1tMmHmbkovbAJBBUiGE","limit":3,"cursor":"4RdCgwWVHZ8PKjENc5WFECL5piGcAY5NmvN4GcTHbmW46rxcH5y5bE348oGC3CB7KC1NDbLoeSszepipwUfpM5G6kQpmDyy6ZXy"}}
<< {"jsonrpc":"2.0","id":"getCompressionSignaturesForOwner/page-3","result":{"context":{"slot":1010},"value":{"items":[],"cursor":null}}}
