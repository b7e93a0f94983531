// description: dataSlice holds on every page, two accounts a page
// clauses: 4.2-M5, 4.2-N2, 4.1-R8
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedAccountsByOwner/data-slice-paged","method":"getCompressedAccountsByOwner","params":{"owner":"HXqWBGAti3PL6VGuVEjUEeTUQ1tMmHmbkovbAJBBUiGE","dataSlice":{"offset":1,"length":2},"limit":2}}
<< {"jsonrpc":"2.0","id":"getCompressedAccountsByOwner/data-slice-paged","result":{"context":{"slot":1010},"value":{"items":[{"hash":"FFznsWoULFmTP7Xerc99ZXJarAnRYp2yUFL9DVBeZm1","lamports":14000,"leafIndex":22,"owner":"HXqWBGAti3PL6VGuVEjUEeTUQ1tMmHmbkovbAJBBUiGE","slotCreated":1008,"tree":"smt1NamzXdq4AMqS2fS2F1i5KTYPZRhoHgWx38d8WsT","address":"13wYmU9PR74VLTzyvKf8fkJhxbzLbVfVGQNHAmM7XDAB","data":null,"seq":27},{"hash":"QV5gDrhz2kTFBKMSojTqAmhLiNynscryKtqo2JKrxxj","lamports":13000,"leafIndex":20,"owner":"HXqWBGAti3PL6VGuVEjUEeTUQ1tMmHmbkovbAJBBUiGE","slotCreated":1005,"tree":"smt1NamzXdq4AMqS2fS2F1i5KTYPZRhoHgWx38d8WsT","address":null,"data":null,"seq":23}],"cursor":"QV5gDrhz2kTFBKMSojTqAmhLiNynscryKtqo2JKrxxj"}}}
