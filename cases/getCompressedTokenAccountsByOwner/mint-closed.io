// description: the only account of that mint was consumed: an empty page
// clauses: 4.2-M6, 4.2-N4, 3.2-R2
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedTokenAccountsByOwner/mint-closed","method":"getCompressedTokenAccountsByOwner","params":{"owner":"Dwqd3QZ2eNTqQYf1VAU1CJQaQk6qoCUwtYeHbjdADGcK","mint":"6gvofEZhNeEsLHdHs3fNmUGs61NKjEusXCddoB8qf6vu"}}
<< {"jsonrpc":"2.0","id":"getCompressedTokenAccountsByOwner/mint-closed","result":{"context":{"slot":1010},"value":{"items":[],"cursor":null}}}
