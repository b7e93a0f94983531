// description: no hashes, only a new address
// clauses: 4.2-M17, 4.3-P1
// mode: schema
// scenario: default
// ambiguity: validity-hashes-required
>> {"jsonrpc":"2.0","id":"getValidityProof/addresses-only","method":"getValidityProof","params":{"newAddressesWithTrees":[{"address":"143yczMDMXsZTJE9AnHveBWq8mvSBzruCZyEHLSj6DFf","tree":"amt1Ayt45jfbdw5YSo7iz6WZxUmnZsQTYXy82hVwyC2"}]}}
<< {"jsonrpc":"2.0","id":"getValidityProof/addresses-only","result":{"context":{"slot":1010},"value":{"compressedProof":{"a":[3,50,40,211,107,53,212,108,153,55,116,68,73,105,45,158,53,5,155,160,226,225,223,23,187,159,173,203,96,99,112,180],"b":[37,116,156,177,85,241,51,121,0,155,27,143,250,125,14,109,16,230,213,42,116,91,60,172,108,95,214,152,4,226,211,234,20,123,60,119,222,168,204,127,217,229,45,175,200,160,231,189,21,7,112,47,78,157,90,115,202,135,141,179,22,157,126,79],"c":[11,142,149,157,183,248,84,135,71,238,123,232,128,202,80,44,127,217,177,49,181,236,255,147,230,215,140,109,242,241,246,160]},"roots":["3vFmH8WS5FFteDhurQVScoGaHxkoQJWuTMgmH3hbv6d2"],"rootIndices":[15],"leafIndices":[7],"leaves":["143yczMDMXsZTJE9AnHveBWq8mvSBzruCZyEHLSj6DFf"],"merkleTrees":["amt1Ayt45jfbdw5YSo7iz6WZxUmnZsQTYXy82hVwyC2"]}}}
