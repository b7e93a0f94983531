// description: page 2, 1 per page, with the cursor page 1 answered
// clauses: 4.2-M8, 4.1-R8, 4.2-N3
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedTokenBalancesByOwner/page-2","method":"getCompressedTokenBalancesByOwner","params":{"owner":"8eAxeH6fqhxY2h35zVALPRAJSt583UdptVFvKw3R1Yzm","limit":1,"cursor":"ZV4acrmc5W9KhTqa1W9mLzj7bwPoBGpsrPbjpth9YEA"}}
<< {"jsonrpc":"2.0","id":"getCompressedTokenBalancesByOwner/page-2","result":{"context":{"slot":1010},"value":{"token_balances":[{"balance":249,"mint":"ADggf3dEtH8sJkGdomYRKLHSYma59StgJfoQezXBKpgW"}],"cursor":"ADggf3dEtH8sJkGdomYRKLHSYma59StgJfoQezXBKpgW"}}}
