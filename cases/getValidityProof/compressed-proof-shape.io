// description: the inside of compressedProof
// clauses: 4.2-M17, 2.10-R2
// mode: schema
// scenario: default
// ambiguity: compressed-proof-shape
>> {"jsonrpc":"2.0","id":"getValidityProof/compressed-proof-shape","method":"getValidityProof","params":{"hashes":["3Mwad5c3AQiTBC84bHtGWzapD2hZPgMfXXz7KVdo4jsv"]}}
<< {"jsonrpc":"2.0","id":"getValidityProof/compressed-proof-shape","result":{"context":{"slot":1010},"value":{"compressedProof":{"a":[136,223,16,216,135,59,182,171,104,54,227,83,130,182,71,44,95,225,104,150,35,188,105,78,157,49,54,177,249,39,253,119],"b":[161,79,43,95,68,196,147,123,164,113,51,86,157,137,80,116,54,146,54,86,147,241,189,248,236,156,26,222,6,205,141,2,27,163,88,187,21,242,80,53,134,127,79,246,206,233,253,73,108,141,253,223,109,100,185,179,139,147,113,230,200,204,79,62],"c":[13,99,199,112,154,227,252,45,163,58,223,7,73,20,81,221,118,129,92,67,91,106,205,154,165,61,13,111,164,179,75,180]},"roots":["2T3Pgudn3BThbXsWaeXc15EdgMnDArXcC2TRygufHghN"],"rootIndices":[28],"leafIndices":[5],"leaves":["3Mwad5c3AQiTBC84bHtGWzapD2hZPgMfXXz7KVdo4jsv"],"merkleTrees":["smt1NamzXdq4AMqS2fS2F1i5KTYPZRhoHgWx38d8WsT"]}}}
