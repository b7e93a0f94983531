// description: a taken address has no non-inclusion proof
// clauses: 4.2-M16
// mode: invariant:error
// scenario: default
>> {"jsonrpc":"2.0","id":"getMultipleNewAddressProofs/error-address-exists","method":"getMultipleNewAddressProofs","params":["14GQVR7MwXTjDhtdEEYKXFfCafy9kmwmKDgkTsk8Z3PV"]}
<< {"jsonrpc":"2.0","id":"getMultipleNewAddressProofs/error-address-exists","error":{"code":-32000,"message":"Validation Error: address 14GQVR7MwXTjDhtdEEYKXFfCafy9kmwmKDgkTsk8Z3PV already exists"}}
