// description: an owner is not a delegate of its own accounts: an empty page
// clauses: 4.2-M7, 4.2-N5
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedTokenAccountsByDelegate/owner-is-not-delegate","method":"getCompressedTokenAccountsByDelegate","params":{"delegate":"Dwqd3QZ2eNTqQYf1VAU1CJQaQk6qoCUwtYeHbjdADGcK"}}
<< {"jsonrpc":"2.0","id":"getCompressedTokenAccountsByDelegate/owner-is-not-delegate","result":{"context":{"slot":1010},"value":{"items":[],"cursor":null}}}
