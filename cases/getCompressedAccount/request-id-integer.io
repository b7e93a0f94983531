// description: an integer id is echoed as given
// clauses: 4.2-M1, 4.1-R4, 4.1-R6
// mode: schema
// scenario: default
// ambiguity: request-id
>> {"jsonrpc":"2.0","id":7,"method":"getCompressedAccount","params":{"hash":"3b87PJpKvNqc91TG3Ut2u4uFGWfQEMRTStSDJow1Ewxu"}}
<< {"jsonrpc":"2.0","id":7,"result":{"context":{"slot":1010},"value":{"hash":"3b87PJpKvNqc91TG3Ut2u4uFGWfQEMRTStSDJow1Ewxu","lamports":1000,"leafIndex":0,"owner":"HXqWBGAti3PL6VGuVEjUEeTUQ1tMmHmbkovbAJBBUiGE","slotCreated":1000,"tree":"smt1NamzXdq4AMqS2fS2F1i5KTYPZRhoHgWx38d8WsT","address":null,"data":{"data":"AAECAwQFBgc=","dataHash":"14f2FFdx78RyjREmXBdWBSKKkrGYWhreQVXQMKxRrqeo","discriminator":1},"seq":1}}}
