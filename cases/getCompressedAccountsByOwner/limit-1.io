// description: limit 1 answers one item
// clauses: 4.2-M5, 4.2-N3
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedAccountsByOwner/limit-1","method":"getCompressedAccountsByOwner","params":{"owner":"HXqWBGAti3PL6VGuVEjUEeTUQ1tMmHmbkovbAJBBUiGE","limit":1}}
<< {"jsonrpc":"2.0","id":"getCompressedAccountsByOwner/limit-1","result":{"context":{"slot":1010},"value":{"items":[{"hash":"FFznsWoULFmTP7Xerc99ZXJarAnRYp2yUFL9DVBeZm1","lamports":14000,"leafIndex":22,"owner":"HXqWBGAti3PL6VGuVEjUEeTUQ1tMmHmbkovbAJBBUiGE","slotCreated":1008,"tree":"smt1NamzXdq4AMqS2fS2F1i5KTYPZRhoHgWx38d8WsT","address":"13wYmU9PR74VLTzyvKf8fkJhxbzLbVfVGQNHAmM7XDAB","data":null,"seq":27}],"cursor":"FFznsWoULFmTP7Xerc99ZXJarAnRYp2yUFL9DVBeZm1"}}}
