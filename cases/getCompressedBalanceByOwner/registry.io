// description: an owner whose account was updated: the live one counts
// clauses: 4.2-M4
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedBalanceByOwner/registry","method":"getCompressedBalanceByOwner","params":{"owner":"6MiscGj9voYhAbkJvYpjLcCVR9kxqwJs5uo2RXF7BL3y"}}
<< {"jsonrpc":"2.0","id":"getCompressedBalanceByOwner/registry","result":{"context":{"slot":1010},"value":11}}
