// description: a filter reads the whole data, the slice cuts the answer
// clauses: 4.2-M5, 2.11-R4, 4.2-N2
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedAccountsByOwner/filter-and-slice","method":"getCompressedAccountsByOwner","params":{"owner":"HXqWBGAti3PL6VGuVEjUEeTUQ1tMmHmbkovbAJBBUiGE","filters":[{"memcmp":{"offset":0,"bytes":"12"}}],"dataSlice":{"offset":0,"length":1}}}
<< {"jsonrpc":"2.0","id":"getCompressedAccountsByOwner/filter-and-slice","result":{"context":{"slot":1010},"value":{"items":[{"hash":"3b87PJpKvNqc91TG3Ut2u4uFGWfQEMRTStSDJow1Ewxu","lamports":1000,"leafIndex":0,"owner":"HXqWBGAti3PL6VGuVEjUEeTUQ1tMmHmbkovbAJBBUiGE","slotCreated":1000,"tree":"smt1NamzXdq4AMqS2fS2F1i5KTYPZRhoHgWx38d8WsT","address":null,"data":{"data":"AA==","dataHash":"14f2FFdx78RyjREmXBdWBSKKkrGYWhreQVXQMKxRrqeo","discriminator":1},"seq":1}],"cursor":null}}}
