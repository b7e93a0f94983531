// description: an account with data, by hash
// clauses: 4.2-M1, 2.3-R1, 2.4-R1
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedAccount/by-hash","method":"getCompressedAccount","params":{"hash":"3b87PJpKvNqc91TG3Ut2u4uFGWfQEMRTStSDJow1Ewxu"}}
<< {"jsonrpc":"2.0","id":"getCompressedAccount/by-hash","result":{"context":{"slot":1010},"value":{"hash":"3b87PJpKvNqc91TG3Ut2u4uFGWfQEMRTStSDJow1Ewxu","lamports":1000,"leafIndex":0,"owner":"HXqWBGAti3PL6VGuVEjUEeTUQ1tMmHmbkovbAJBBUiGE","slotCreated":1000,"tree":"smt1NamzXdq4AMqS2fS2F1i5KTYPZRhoHgWx38d8WsT","address":null,"data":{"data":"AAECAwQFBgc=","dataHash":"14f2FFdx78RyjREmXBdWBSKKkrGYWhreQVXQMKxRrqeo","discriminator":1},"seq":1}}}
