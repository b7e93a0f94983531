// description: page 3, 1 per page, with the cursor page 2 answered
// clauses: 4.2-M8, 4.1-R8, 4.2-N3
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedTokenBalancesByOwner/page-3","method":"getCompressedTokenBalancesByOwner","params":{"owner":"8eAxeH6fqhxY2h35zVALPRAJSt583UdptVFvKw3R1Yzm","limit":1,"cursor":"ADggf3dEtH8sJkGdomYRKLHSYma59StgJfoQezXBKpgW"}}
<< {"jsonrpc":"2.0","id":"getCompressedTokenBalancesByOwner/page-3","result":{"context":{"slot":1010},"value":{"token_balances":[],"cursor":null}}}
