// description: a key without anything: an empty page, null cursor
// clauses: 4.2-M7, 4.1-R8
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedTokenAccountsByDelegate/idle","method":"getCompressedTokenAccountsByDelegate","params":{"delegate":"F599FAbtAE3HqoHu7NvP4EZb8QriURaNLUzF3feSmfFA"}}
<< {"jsonrpc":"2.0","id":"getCompressedTokenAccountsByDelegate/idle","result":{"context":{"slot":1010},"value":{"items":[],"cursor":null}}}
