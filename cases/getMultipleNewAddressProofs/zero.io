// description: no address: the spec is silent
// clauses: 4.2-M16
// mode: schema
// scenario: default
>> {"jsonrpc":"2.0","id":"getMultipleNewAddressProofs/zero","method":"getMultipleNewAddressProofs","params":[]}
<< {"jsonrpc":"2.0","id":"getMultipleNewAddressProofs/zero","result":{"context":{"slot":1010},"value":[]}}
