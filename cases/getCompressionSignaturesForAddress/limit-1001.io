// description: limit 1001, past the observed maximum, is refused
// clauses: 4.2-M11, 4.2-N3, 8-S2
// mode: invariant:error
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressionSignaturesForAddress/limit-1001","method":"getCompressionSignaturesForAddress","params":{"address":"1qd7ttTRWA21yuCcancFC2wzDKLwywwN36KDi81x6x3","limit":1001}}
<< {"jsonrpc":"2.0","id":"getCompressionSignaturesForAddress/limit-1001","error":{"code":-32602,"message":"Invalid params: limit 1001 exceeds the maximum of 1000"}}
