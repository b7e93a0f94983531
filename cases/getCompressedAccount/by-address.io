// description: an account with an address, by address
// clauses: 4.2-M1, 2.3-R1
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedAccount/by-address","method":"getCompressedAccount","params":{"address":"14GQVR7MwXTjDhtdEEYKXFfCafy9kmwmKDgkTsk8Z3PV"}}
<< {"jsonrpc":"2.0","id":"getCompressedAccount/by-address","result":{"context":{"slot":1010},"value":{"hash":"fGECZ8v58zChPsjh8tPkTFVeMFBwwPoJxKivic52fgg","lamports":8000,"leafIndex":7,"owner":"HXqWBGAti3PL6VGuVEjUEeTUQ1tMmHmbkovbAJBBUiGE","slotCreated":1002,"tree":"smt1NamzXdq4AMqS2fS2F1i5KTYPZRhoHgWx38d8WsT","address":"14GQVR7MwXTjDhtdEEYKXFfCafy9kmwmKDgkTsk8Z3PV","data":null,"seq":8}}}
