// description: a cursor no page returned is refused, not read as an empty page (observed)
// clauses: 4.2-M11, 4.1-R8, 2.1-R4
// mode: invariant:error
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressionSignaturesForAddress/error-malformed-cursor","method":"getCompressionSignaturesForAddress","params":{"address":"1qd7ttTRWA21yuCcancFC2wzDKLwywwN36KDi81x6x3","cursor":"not-a-cursor-0OIl"}}
<< {"jsonrpc":"2.0","id":"getCompressionSignaturesForAddress/error-malformed-cursor","error":{"code":-32602,"message":"Invalid params: malformed cursor: invalid base58 character(s) '-0IOl' in 'not-a-cursor-0OIl'"}}
