// description: a taken address cannot be created
// clauses: 4.2-M17, 4.3-P2
// mode: invariant:error
// scenario: default
>> {"jsonrpc":"2.0","id":"getValidityProof/error-address-exists","method":"getValidityProof","params":{"hashes":["3b87PJpKvNqc91TG3Ut2u4uFGWfQEMRTStSDJow1Ewxu"],"newAddressesWithTrees":[{"address":"14GQVR7MwXTjDhtdEEYKXFfCafy9kmwmKDgkTsk8Z3PV","tree":"amt1Ayt45jfbdw5YSo7iz6WZxUmnZsQTYXy82hVwyC2"}]}}
<< {"jsonrpc":"2.0","id":"getValidityProof/error-address-exists","error":{"code":-32000,"message":"Validation Error: address 14GQVR7MwXTjDhtdEEYKXFfCafy9kmwmKDgkTsk8Z3PV already exists"}}
