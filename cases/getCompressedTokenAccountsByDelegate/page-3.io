// description: page 3, 1 per page, with the cursor page 2 answered
// clauses: 4.2-M7, 4.1-R8, 4.2-N3
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedTokenAccountsByDelegate/page-3","method":"getCompressedTokenAccountsByDelegate","params":{"delegate":"HVse2mxqFS2K4nDctX478f5BfNQriavfrHGFHwcTWnG5","limit":1,"cursor":"3jqPsXNJeebZErRcaG4htanwLm4SGSYmv9Qzv4g7eXQHxwXPGiX7tConWdK8VDyFmxF8QovNHHd92cxtfSrJgcz9"}}
<< {"jsonrpc":"2.0","id":"getCompressedTokenAccountsByDelegate/page-3","result":{"context":{"slot":1010},"value":{"items":[],"cursor":null}}}
