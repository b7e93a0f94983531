// description: two state trees: wire fields or §2.10's
// clauses: 4.2-M17, 2.10-R1
// mode: schema
// scenario: default
// ambiguity: validity-proof-fields
>> {"jsonrpc":"2.0","id":"getValidityProof/proof-fields","method":"getValidityProof","params":{"hashes":["3b87PJpKvNqc91TG3Ut2u4uFGWfQEMRTStSDJow1Ewxu","386tyLWJDiJo6y5TfG7vEgQgbzMDTNVJZ5NWieYW5AX5"]}}
<< {"jsonrpc":"2.0","id":"getValidityProof/proof-fields","result":{"context":{"slot":1010},"value":{"compressedProof":{"a":[1,52,150,8,48,15,237,27,213,200,35,253,226,209,159,198,98,68,161,88,235,241,134,220,12,79,82,8,76,101,136,206],"b":[4,91,177,225,199,131,64,90,11,54,200,16,254,62,242,230,109,158,112,106,244,57,102,53,247,10,195,45,80,137,89,167,25,182,77,138,105,167,161,88,177,5,217,13,130,182,13,19,95,6,111,117,134,1,87,172,45,215,45,115,207,128,240,115],"c":[45,251,244,116,214,183,252,134,108,117,33,143,167,100,195,191,250,54,52,140,77,136,36,90,45,226,113,64,83,238,53,52]},"roots":["2T3Pgudn3BThbXsWaeXc15EdgMnDArXcC2TRygufHghN","3Rjq5urYxrCV5YvGRFpGXxJ8TiyzjS623Aroxh4NatBr"],"rootIndices":[28,4],"leafIndices":[0,0],"leaves":["3b87PJpKvNqc91TG3Ut2u4uFGWfQEMRTStSDJow1Ewxu","386tyLWJDiJo6y5TfG7vEgQgbzMDTNVJZ5NWieYW5AX5"],"merkleTrees":["smt1NamzXdq4AMqS2fS2F1i5KTYPZRhoHgWx38d8WsT","smt2rJAFdyJJupwaGAzAaZQ3SMbnn3QxrmvPrjvStos"]}}}
