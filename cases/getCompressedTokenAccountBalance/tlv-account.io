// description: an account with tlv
// clauses: 4.2-M9
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedTokenAccountBalance/tlv-account","method":"getCompressedTokenAccountBalance","params":{"hash":"3tG7VgwwhiZ4n1MoE3Bf5Bj3xw8xtmTTKfxNVgQHniHs"}}
<< {"jsonrpc":"2.0","id":"getCompressedTokenAccountBalance/tlv-account","result":{"context":{"slot":1010},"value":{"amount":1000}}}
