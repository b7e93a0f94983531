// description: an indexer that saw nothing: an empty page
// clauses: 4.2-M15, 4.1-R8
// mode: exact
// scenario: empty
>> {"jsonrpc":"2.0","id":"getLatestNonVotingSignatures/empty-scenario","method":"getLatestNonVotingSignatures","params":{}}
<< {"jsonrpc":"2.0","id":"getLatestNonVotingSignatures/empty-scenario","result":{"context":{"slot":0},"value":{"items":[]}}}
