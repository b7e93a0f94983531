// description: 1 hashes: an allowed count
// clauses: 4.2-M17, 8-L1, 4.3-R1, 7-C2
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getValidityProof/limit-hashes-1","method":"getValidityProof","params":{"hashes":["3b87PJpKvNqc91TG3Ut2u4uFGWfQEMRTStSDJow1Ewxu"]}}
<< {"jsonrpc":"2.0","id":"getValidityProof/limit-hashes-1","result":{"context":{"slot":1010},"value":{"compressedProof":{"a":[175,222,124,251,153,59,176,167,30,75,104,96,75,101,228,83,13,3,98,223,184,155,165,137,41,30,120,49,20,143,154,34],"b":[35,200,8,176,145,164,177,201,185,163,224,249,213,160,249,241,31,219,119,152,190,194,114,135,52,212,105,11,2,49,234,12,40,172,214,55,168,47,196,116,147,77,172,60,186,7,17,50,104,213,99,97,3,228,73,139,140,40,122,208,87,139,254,94],"c":[48,97,131,182,196,84,101,170,70,65,130,221,50,142,62,162,252,73,136,111,83,184,87,47,52,250,251,155,65,62,95,81]},"roots":["n4XqJX6HH7gBQS46SvzMqzKGWzPyBpRdS5JrNbLDoHj"],"rootIndices":[28],"leafIndices":[0],"leaves":["3b87PJpKvNqc91TG3Ut2u4uFGWfQEMRTStSDJow1Ewxu"],"merkleTrees":["smt1NamzXdq4AMqS2fS2F1i5KTYPZRhoHgWx38d8WsT"]}}}
