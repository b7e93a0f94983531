// description: a program owner owns no token account: an empty page
// clauses: 4.2-M13
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressionSignaturesForTokenOwner/program-owner","method":"getCompressionSignaturesForTokenOwner","params":{"owner":"HXqWBGAti3PL6VGuVEjUEeTUQ1tMmHmbkovbAJBBUiGE"}}
<< {"jsonrpc":"2.0","id":"getCompressionSignaturesForTokenOwner/program-owner","result":{"context":{"slot":1010},"value":{"items":[],"cursor":null}}}
