// description: first page, 1 per page: a full page carries a cursor
// clauses: 4.2-M8, 4.1-R8, 4.2-N3
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedTokenBalancesByOwner/page-1","method":"getCompressedTokenBalancesByOwner","params":{"owner":"8eAxeH6fqhxY2h35zVALPRAJSt583UdptVFvKw3R1Yzm","limit":1}}
<< {"jsonrpc":"2.0","id":"getCompressedTokenBalancesByOwner/page-1","result":{"context":{"slot":1010},"value":{"token_balances":[{"balance":18446744073709551615,"mint":"ZV4acrmc5W9KhTqa1W9mLzj7bwPoBGpsrPbjpth9YEA"}],"cursor":"ZV4acrmc5W9KhTqa1W9mLzj7bwPoBGpsrPbjpth9YEA"}}}
