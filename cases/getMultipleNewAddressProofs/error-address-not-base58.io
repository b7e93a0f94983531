// description: an address that is not base58
// clauses: 4.2-M16, 2.1-R1
// mode: invariant:error
// scenario: default
>> {"jsonrpc":"2.0","id":"getMultipleNewAddressProofs/error-address-not-base58","method":"getMultipleNewAddressProofs","params":["address"]}
<< {"jsonrpc":"2.0","id":"getMultipleNewAddressProofs/error-address-not-base58","error":{"code":-32602,"message":"Invalid params: /0: \"address\" does not match \"^[1-9A-HJ-NP-Za-km-z]{32,44}$\""}}
