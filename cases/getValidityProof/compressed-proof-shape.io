// description: the inside of compressedProof
// clauses: 4.2-M17, 2.10-R2
// mode: schema
// scenario: default
// ambiguity: compressed-proof-shape
>> {"jsonrpc":"2.0","id":"getValidityProof/compressed-proof-shape","method":"getValidityProof","params":{"hashes":["3Mwad5c3AQiTBC84bHtGWzapD2hZPgMfXXz7KVdo4jsv"]}}
<< {"jsonrpc":"2.0","id":"getValidityProof/compressed-proof-shape","result":{"context":{"slot":1010},"value":{"compressedProof":{"a":[135,242,151,250,141,52,87,78,202,178,76,131,18,194,222,143,48,15,17,24,239,168,62,196,216,209,192,165,137,85,242,38],"b":[34,86,5,99,9,131,225,31,66,141,192,69,95,124,112,116,70,247,67,165,48,56,172,183,219,204,17,241,153,129,159,77,10,75,195,61,139,208,20,251,10,116,78,56,3,104,65,132,94,152,99,198,105,55,192,138,200,12,248,123,34,228,199,179],"c":[24,193,129,149,166,77,110,151,65,84,230,32,226,68,75,243,221,56,213,154,236,51,158,127,241,66,129,157,0,207,222,94]},"roots":["n4XqJX6HH7gBQS46SvzMqzKGWzPyBpRdS5JrNbLDoHj"],"rootIndices":[28],"leafIndices":[5],"leaves":["3Mwad5c3AQiTBC84bHtGWzapD2hZPgMfXXz7KVdo4jsv"],"merkleTrees":["smt1NamzXdq4AMqS2fS2F1i5KTYPZRhoHgWx38d8WsT"]}}}
