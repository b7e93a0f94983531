// description: an indexer that saw nothing: an empty page
// clauses: 4.2-M14, 4.1-R8
// mode: exact
// scenario: empty
>> {"jsonrpc":"2.0","id":"getLatestCompressionSignatures/empty-scenario","method":"getLatestCompressionSignatures","params":{}}
<< {"jsonrpc":"2.0","id":"getLatestCompressionSignatures/empty-scenario","result":{"context":{"slot":0},"value":{"items":[],"cursor":null}}}
