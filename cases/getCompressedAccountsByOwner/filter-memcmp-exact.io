// description: memcmp keeps the accounts whose data starts with the bytes
// clauses: 4.2-M5, 2.11-R4
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedAccountsByOwner/filter-memcmp-exact","method":"getCompressedAccountsByOwner","params":{"owner":"HXqWBGAti3PL6VGuVEjUEeTUQ1tMmHmbkovbAJBBUiGE","filters":[{"memcmp":{"offset":0,"bytes":"12"}}]}}
<< {"jsonrpc":"2.0","id":"getCompressedAccountsByOwner/filter-memcmp-exact","result":{"context":{"slot":1010},"value":{"items":[{"hash":"3b87PJpKvNqc91TG3Ut2u4uFGWfQEMRTStSDJow1Ewxu","lamports":1000,"leafIndex":0,"owner":"HXqWBGAti3PL6VGuVEjUEeTUQ1tMmHmbkovbAJBBUiGE","slotCreated":1000,"tree":"smt1NamzXdq4AMqS2fS2F1i5KTYPZRhoHgWx38d8WsT","address":null,"data":{"data":"AAECAwQFBgc=","dataHash":"14f2FFdx78RyjREmXBdWBSKKkrGYWhreQVXQMKxRrqeo","discriminator":1},"seq":1}],"cursor":null}}}
