// description: roots and leaves as BN
// clauses: 4.2-M17, 2.1-R6, 2.10-R1
// mode: schema
// scenario: default
// ambiguity: bn-values
>> {"jsonrpc":"2.0","id":"getValidityProof/bn-values","method":"getValidityProof","params":{"hashes":["2siz7yyDhgry2SbHuf5VPyyG9BDkFUC3caFzv5Nx2S69"]}}
<< {"jsonrpc":"2.0","id":"getValidityProof/bn-values","result":{"context":{"slot":1010},"value":{"compressedProof":{"a":[133,161,215,165,242,195,91,121,217,113,23,45,236,50,55,166,64,237,86,37,52,132,203,222,35,116,169,25,142,218,124,206],"b":[161,54,66,82,32,36,22,166,96,141,78,182,162,210,224,71,34,45,147,243,137,5,181,169,87,5,128,184,62,158,171,226,31,122,100,166,90,137,63,122,211,15,108,22,136,67,237,104,8,125,66,56,210,14,31,18,16,174,156,209,104,121,162,148],"c":[157,242,252,8,171,52,77,132,193,237,111,250,28,8,142,172,85,70,57,188,136,110,42,74,164,251,249,138,63,215,114,185]},"roots":["2T3Pgudn3BThbXsWaeXc15EdgMnDArXcC2TRygufHghN"],"rootIndices":[28],"leafIndices":[8],"leaves":["2siz7yyDhgry2SbHuf5VPyyG9BDkFUC3caFzv5Nx2S69"],"merkleTrees":["smt1NamzXdq4AMqS2fS2F1i5KTYPZRhoHgWx38d8WsT"]}}}
