// description: a key without anything: an empty items array
// clauses: 4.2-M6, 7-N3
// mode: invariant:empty-items
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedTokenAccountsByOwner/not-found-idle","method":"getCompressedTokenAccountsByOwner","params":{"owner":"F599FAbtAE3HqoHu7NvP4EZb8QriURaNLUzF3feSmfFA"}}
<< {"jsonrpc":"2.0","id":"getCompressedTokenAccountsByOwner/not-found-idle","result":{"context":{"slot":1010},"value":{"items":[],"cursor":null}}}
