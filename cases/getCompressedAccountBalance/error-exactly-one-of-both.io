// description: both address and hash are refused, even naming one account
// clauses: 4.2-M2
// mode: invariant:error
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedAccountBalance/error-exactly-one-of-both","method":"getCompressedAccountBalance","params":{"address":"14GQVR7MwXTjDhtdEEYKXFfCafy9kmwmKDgkTsk8Z3PV","hash":"fGECZ8v58zChPsjh8tPkTFVeMFBwwPoJxKivic52fgg"}}
<< {"jsonrpc":"2.0","id":"getCompressedAccountBalance/error-exactly-one-of-both","error":{"code":-32000,"message":"Validation Error: Only one of address or hash must be provided"}}
