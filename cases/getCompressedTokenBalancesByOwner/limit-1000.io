// description: limit 1000, the observed maximum, is accepted
// clauses: 4.2-M8, 4.2-N3, 8-S2
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedTokenBalancesByOwner/limit-1000","method":"getCompressedTokenBalancesByOwner","params":{"owner":"8eAxeH6fqhxY2h35zVALPRAJSt583UdptVFvKw3R1Yzm","limit":1000}}
<< {"jsonrpc":"2.0","id":"getCompressedTokenBalancesByOwner/limit-1000","result":{"context":{"slot":1010},"value":{"token_balances":[{"balance":18446744073709551615,"mint":"ZV4acrmc5W9KhTqa1W9mLzj7bwPoBGpsrPbjpth9YEA"},{"balance":249,"mint":"ADggf3dEtH8sJkGdomYRKLHSYma59StgJfoQezXBKpgW"}],"cursor":null}}}
