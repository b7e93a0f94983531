// description: roots and leaves as BN
// clauses: 4.2-M17, 2.1-R6, 2.10-R1
// mode: schema
// scenario: default
// ambiguity: bn-values
>> {"jsonrpc":"2.0","id":"getValidityProof/bn-values","method":"getValidityProof","params":{"hashes":["2siz7yyDhgry2SbHuf5VPyyG9BDkFUC3caFzv5Nx2S69"]}}
<< {"jsonrpc":"2.0","id":"getValidityProof/bn-values","result":{"context":{"slot":1010},"value":{"compressedProof":{"a":[17,28,87,123,84,52,71,51,31,221,243,205,127,131,139,53,137,255,115,125,249,168,77,226,44,33,180,247,218,192,57,246],"b":[18,171,25,119,20,91,26,34,199,69,255,59,22,181,220,194,91,167,221,174,53,108,17,16,134,253,6,82,184,197,80,233,8,128,31,118,46,103,98,30,120,63,16,8,185,158,108,123,30,107,9,211,115,62,109,143,4,104,35,113,29,255,181,226],"c":[151,94,76,230,154,174,140,98,254,114,123,89,241,7,149,50,251,157,219,143,70,149,29,136,176,35,81,248,255,167,181,50]},"roots":["n4XqJX6HH7gBQS46SvzMqzKGWzPyBpRdS5JrNbLDoHj"],"rootIndices":[28],"leafIndices":[8],"leaves":["2siz7yyDhgry2SbHuf5VPyyG9BDkFUC3caFzv5Nx2S69"],"merkleTrees":["smt1NamzXdq4AMqS2fS2F1i5KTYPZRhoHgWx38d8WsT"]}}}
