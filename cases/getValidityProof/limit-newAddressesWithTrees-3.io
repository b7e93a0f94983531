// description: 3 newAddressesWithTrees: a count outside the allowed ones
// clauses: 4.2-M17, 8-L2, 4.3-R2, 7-C2
// mode: invariant:error
// scenario: default
>> {"jsonrpc":"2.0","id":"getValidityProof/limit-newAddressesWithTrees-3","method":"getValidityProof","params":{"hashes":["3b87PJpKvNqc91TG3Ut2u4uFGWfQEMRTStSDJow1Ewxu"],"newAddressesWithTrees":[{"address":"143yczMDMXsZTJE9AnHveBWq8mvSBzruCZyEHLSj6DFf","tree":"amt1Ayt45jfbdw5YSo7iz6WZxUmnZsQTYXy82hVwyC2"},{"address":"13NFNpPaEmK75cuXxChtN6oQxTTX9QzbjL36eLX8Vmsu","tree":"amt1Ayt45jfbdw5YSo7iz6WZxUmnZsQTYXy82hVwyC2"},{"address":"12zwM58RGb4yq3fEyVRQDZu9YgkkVL8638ycE8DqohCD","tree":"amt1Ayt45jfbdw5YSo7iz6WZxUmnZsQTYXy82hVwyC2"}]}}
<< {"jsonrpc":"2.0","id":"getValidityProof/limit-newAddressesWithTrees-3","error":{"code":-32602,"message":"Invalid params: 3 new addresses given, allowed counts are [1, 2]"}}
