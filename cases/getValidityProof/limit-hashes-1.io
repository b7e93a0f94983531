// description: 1 hashes: an allowed count
// clauses: 4.2-M17, 8-L1, 4.3-R1, 7-C2
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getValidityProof/limit-hashes-1","method":"getValidityProof","params":{"hashes":["3b87PJpKvNqc91TG3Ut2u4uFGWfQEMRTStSDJow1Ewxu"]}}
<< {"jsonrpc":"2.0","id":"getValidityProof/limit-hashes-1","result":{"context":{"slot":1010},"value":{"compressedProof":{"a":[138,249,178,196,149,16,194,17,113,26,219,71,116,142,71,75,194,218,5,26,28,145,6,93,24,64,35,59,68,172,156,170],"b":[174,123,247,220,211,136,239,80,254,226,155,114,44,224,61,73,143,223,5,120,53,53,46,86,194,80,1,95,59,184,46,33,46,94,53,58,133,7,101,236,93,174,101,145,22,43,180,143,32,156,214,42,13,154,3,67,109,216,10,234,107,213,40,159],"c":[153,106,15,68,102,159,33,77,51,232,73,64,44,26,113,238,63,146,125,75,97,98,38,31,76,92,91,247,88,0,90,234]},"roots":["2T3Pgudn3BThbXsWaeXc15EdgMnDArXcC2TRygufHghN"],"rootIndices":[28],"leafIndices":[0],"leaves":["3b87PJpKvNqc91TG3Ut2u4uFGWfQEMRTStSDJow1Ewxu"],"merkleTrees":["smt1NamzXdq4AMqS2fS2F1i5KTYPZRhoHgWx38d8WsT"]}}}
