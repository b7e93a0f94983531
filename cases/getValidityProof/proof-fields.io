// description: two state trees: wire fields or §2.10's
// clauses: 4.2-M17, 2.10-R1
// mode: schema
// scenario: default
// ambiguity: validity-proof-fields
>> {"jsonrpc":"2.0","id":"getValidityProof/proof-fields","method":"getValidityProof","params":{"hashes":["3b87PJpKvNqc91TG3Ut2u4uFGWfQEMRTStSDJow1Ewxu","2QQdESHLFgSXxZbUerpnBab3F88eirEDd9rxdUov56HH"]}}
<< {"jsonrpc":"2.0","id":"getValidityProof/proof-fields","result":{"context":{"slot":1010},"value":{"compressedProof":{"a":[164,31,168,132,139,249,96,247,29,20,201,168,195,6,207,88,3,84,2,75,42,110,94,207,166,221,98,108,120,12,52,229],"b":[14,152,230,123,53,128,108,50,103,96,106,76,173,201,10,254,236,142,119,108,24,142,69,226,84,26,193,110,72,33,100,48,42,98,173,223,93,163,77,208,2,65,95,95,90,84,26,212,108,67,149,198,134,134,140,65,83,17,237,180,209,88,161,230],"c":[166,93,207,38,186,214,240,195,58,201,95,129,211,119,213,73,12,222,58,75,135,234,233,140,169,229,222,2,30,58,39,6]},"roots":["n4XqJX6HH7gBQS46SvzMqzKGWzPyBpRdS5JrNbLDoHj","478Ng2E6ii4Aqm5MdhVuq9J9dxK5mvbXtGE9ajjNVmPr"],"rootIndices":[28,4],"leafIndices":[0,0],"leaves":["3b87PJpKvNqc91TG3Ut2u4uFGWfQEMRTStSDJow1Ewxu","2QQdESHLFgSXxZbUerpnBab3F88eirEDd9rxdUov56HH"],"merkleTrees":["smt1NamzXdq4AMqS2fS2F1i5KTYPZRhoHgWx38d8WsT","smt2rJAFdyJJupwMKAqTNAJwvjhmiZ4JYGZmbVRw1Ho"]}}}
