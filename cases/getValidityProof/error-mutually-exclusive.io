// description: the deprecated newAddresses with newAddressesWithTrees (observed)
// clauses: 4.2-M17, 9-R3
// mode: invariant:error
// scenario: default
>> {"jsonrpc":"2.0","id":"getValidityProof/error-mutually-exclusive","method":"getValidityProof","params":{"hashes":["3b87PJpKvNqc91TG3Ut2u4uFGWfQEMRTStSDJow1Ewxu"],"newAddresses":["143yczMDMXsZTJE9AnHveBWq8mvSBzruCZyEHLSj6DFf"],"newAddressesWithTrees":[{"address":"143yczMDMXsZTJE9AnHveBWq8mvSBzruCZyEHLSj6DFf","tree":"amt1Ayt45jfbdw5YSo7iz6WZxUmnZsQTYXy82hVwyC2"}]}}
<< {"jsonrpc":"2.0","id":"getValidityProof/error-mutually-exclusive","error":{"code":-32000,"message":"Validation Error: give newAddressesWithTrees or the deprecated newAddresses, not both"}}
