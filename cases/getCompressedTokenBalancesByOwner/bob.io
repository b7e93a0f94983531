// description: u64 max, and a consumed account left out
// clauses: 4.2-M8, 2.7-R1
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedTokenBalancesByOwner/bob","method":"getCompressedTokenBalancesByOwner","params":{"owner":"8eAxeH6fqhxY2h35zVALPRAJSt583UdptVFvKw3R1Yzm"}}
<< {"jsonrpc":"2.0","id":"getCompressedTokenBalancesByOwner/bob","result":{"context":{"slot":1010},"value":{"token_balances":[{"balance":18446744073709551615,"mint":"ZV4acrmc5W9KhTqa1W9mLzj7bwPoBGpsrPbjpth9YEA"},{"balance":249,"mint":"ADggf3dEtH8sJkGdomYRKLHSYma59StgJfoQezXBKpgW"}],"cursor":null}}}
