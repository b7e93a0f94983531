// description: an account without address and data
// clauses: 4.2-M1, 2.3-R1
// mode: schema
// scenario: default
// ambiguity: optional-null
>> {"jsonrpc":"2.0","id":"getCompressedAccount/optional-null","method":"getCompressedAccount","params":{"hash":"2xtjyznRzeEhSBbaGgNU6YPxA3odVfau36BGxxy7Ze8R"}}
<< {"jsonrpc":"2.0","id":"getCompressedAccount/optional-null","result":{"context":{"slot":1010},"value":{"hash":"2xtjyznRzeEhSBbaGgNU6YPxA3odVfau36BGxxy7Ze8R","lamports":6000,"leafIndex":6,"owner":"HXqWBGAti3PL6VGuVEjUEeTUQ1tMmHmbkovbAJBBUiGE","slotCreated":1002,"tree":"smt1NamzXdq4AMqS2fS2F1i5KTYPZRhoHgWx38d8WsT","address":null,"data":null,"seq":7}}}
