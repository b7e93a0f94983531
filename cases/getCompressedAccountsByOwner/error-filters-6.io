// description: 6 filters, past the observed maximum
// clauses: 4.2-M5, 2.11-R4
// mode: invariant:error
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedAccountsByOwner/error-filters-6","method":"getCompressedAccountsByOwner","params":{"owner":"HXqWBGAti3PL6VGuVEjUEeTUQ1tMmHmbkovbAJBBUiGE","filters":[{"memcmp":{"offset":0,"bytes":"12"}},{"memcmp":{"offset":0,"bytes":"12"}},{"memcmp":{"offset":0,"bytes":"12"}},{"memcmp":{"offset":0,"bytes":"12"}},{"memcmp":{"offset":0,"bytes":"12"}},{"memcmp":{"offset":0,"bytes":"12"}}]}}
<< {"jsonrpc":"2.0","id":"getCompressedAccountsByOwner/error-filters-6","error":{"code":-32602,"message":"Invalid params: 6 filters given, at most 5 allowed"}}
