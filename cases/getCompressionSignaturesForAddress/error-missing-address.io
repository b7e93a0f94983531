// description: params without `address` are refused
// clauses: 4.2-M11, 4.1-R5
// mode: invariant:error
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressionSignaturesForAddress/error-missing-address","method":"getCompressionSignaturesForAddress","params":{}}
<< {"jsonrpc":"2.0","id":"getCompressionSignaturesForAddress/error-missing-address","error":{"code":-32602,"message":"Invalid params: /: \"address\" is a required property"}}
