// description: page 3, 5 per page, with the cursor page 2 answered
// clauses: 4.2-M5, 4.1-R8, 4.2-N3
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedAccountsByOwner/page-3","method":"getCompressedAccountsByOwner","params":{"owner":"HXqWBGAti3PL6VGuVEjUEeTUQ1tMmHmbkovbAJBBUiGE","limit":5,"cursor":"3Mwad5c3AQiTBC84bHtGWzapD2hZPgMfXXz7KVdo4jsv"}}
<< {"jsonrpc":"2.0","id":"getCompressedAccountsByOwner/page-3","result":{"context":{"slot":1010},"value":{"items":[{"hash":"3PzzZNDcnHyB81WUVq8WTJUvpL9EXkyuxd8C62GozPdk","lamports":11000,"leafIndex":17,"owner":"HXqWBGAti3PL6VGuVEjUEeTUQ1tMmHmbkovbAJBBUiGE","slotCreated":1005,"tree":"smt1NamzXdq4AMqS2fS2F1i5KTYPZRhoHgWx38d8WsT","address":null,"data":null,"seq":20},{"hash":"3b87PJpKvNqc91TG3Ut2u4uFGWfQEMRTStSDJow1Ewxu","lamports":1000,"leafIndex":0,"owner":"HXqWBGAti3PL6VGuVEjUEeTUQ1tMmHmbkovbAJBBUiGE","slotCreated":1000,"tree":"smt1NamzXdq4AMqS2fS2F1i5KTYPZRhoHgWx38d8WsT","address":null,"data":{"data":"AAECAwQFBgc=","dataHash":"14f2FFdx78RyjREmXBdWBSKKkrGYWhreQVXQMKxRrqeo","discriminator":1},"seq":1}],"cursor":null}}}
