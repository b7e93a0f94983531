// description: limit 1001, past the observed maximum, is refused
// clauses: 4.2-M8, 4.2-N3, 8-S2
// mode: invariant:error
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedTokenBalancesByOwner/limit-1001","method":"getCompressedTokenBalancesByOwner","params":{"owner":"8eAxeH6fqhxY2h35zVALPRAJSt583UdptVFvKw3R1Yzm","limit":1001}}
<< {"jsonrpc":"2.0","id":"getCompressedTokenBalancesByOwner/limit-1001","error":{"code":-32602,"message":"Invalid params: limit 1001 exceeds the maximum of 1000"}}
