// description: a filter on the first listed account's first byte holds on every page: the accounts after it are left out
// clauses: 4.2-M5, 2.11-R4, 4.1-R8
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedAccountsByOwner/filter-memcmp-paged","method":"getCompressedAccountsByOwner","params":{"owner":"HXqWBGAti3PL6VGuVEjUEeTUQ1tMmHmbkovbAJBBUiGE","filters":[{"memcmp":{"offset":0,"bytes":"5Q"}}],"limit":1}}
<< {"jsonrpc":"2.0","id":"getCompressedAccountsByOwner/filter-memcmp-paged","result":{"context":{"slot":1010},"value":{"items":[{"hash":"2yCbUTrbE6KTR3c8HeqN6uHLkVPZCuK4bPZSmhkAPyGx","lamports":10000,"leafIndex":16,"owner":"HXqWBGAti3PL6VGuVEjUEeTUQ1tMmHmbkovbAJBBUiGE","slotCreated":1005,"tree":"smt1NamzXdq4AMqS2fS2F1i5KTYPZRhoHgWx38d8WsT","address":null,"data":{"data":"/w==","dataHash":"14EZUnfZhStG3kDrNCuj5JmDmPj9gmfvbN2TKS12s92H","discriminator":3},"seq":19}],"cursor":"2yCbUTrbE6KTR3c8HeqN6uHLkVPZCuK4bPZSmhkAPyGx"}}}
