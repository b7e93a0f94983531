// description: the only account of that mint was consumed: no balance
// clauses: 4.2-M8, 4.2-N4, 3.2-R2
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedTokenBalancesByOwner/mint-closed","method":"getCompressedTokenBalancesByOwner","params":{"owner":"Dwqd3QZ2eNTqQYf1VAU1CJQaQk6qoCUwtYeHbjdADGcK","mint":"6gvofEZhNeEsLHdHs3fNmUGs61NKjEusXCddoB8qf6vu"}}
<< {"jsonrpc":"2.0","id":"getCompressedTokenBalancesByOwner/mint-closed","result":{"context":{"slot":1010},"value":{"token_balances":[],"cursor":null}}}
