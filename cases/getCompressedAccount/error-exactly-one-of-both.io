// description: both address and hash are refused, even naming one account
// clauses: 4.2-M1, 7-C1, 4.2-N1
// mode: invariant:error
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedAccount/error-exactly-one-of-both","method":"getCompressedAccount","params":{"address":"14GQVR7MwXTjDhtdEEYKXFfCafy9kmwmKDgkTsk8Z3PV","hash":"fGECZ8v58zChPsjh8tPkTFVeMFBwwPoJxKivic52fgg"}}
<< {"jsonrpc":"2.0","id":"getCompressedAccount/error-exactly-one-of-both","error":{"code":-32000,"message":"Validation Error: Only one of address or hash must be provided"}}
