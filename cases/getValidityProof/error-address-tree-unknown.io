// description: a state tree is not an address tree
// clauses: 4.2-M17, 4.3-P2
// mode: invariant:error
// scenario: default
>> {"jsonrpc":"2.0","id":"getValidityProof/error-address-tree-unknown","method":"getValidityProof","params":{"hashes":["3b87PJpKvNqc91TG3Ut2u4uFGWfQEMRTStSDJow1Ewxu"],"newAddressesWithTrees":[{"address":"143yczMDMXsZTJE9AnHveBWq8mvSBzruCZyEHLSj6DFf","tree":"smt1NamzXdq4AMqS2fS2F1i5KTYPZRhoHgWx38d8WsT"}]}}
<< {"jsonrpc":"2.0","id":"getValidityProof/error-address-tree-unknown","error":{"code":-32000,"message":"Validation Error: address tree smt1NamzXdq4AMqS2fS2F1i5KTYPZRhoHgWx38d8WsT is not indexed"}}
