// description: one account delegated to erin
// clauses: 4.2-M7, 4.2-N5
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedTokenAccountsByDelegate/erin","method":"getCompressedTokenAccountsByDelegate","params":{"delegate":"Gnwax7qVJ7gstpFkTb9Hdhe3WaXkdY6pn2oHx3CzxX4S"}}
<< {"jsonrpc":"2.0","id":"getCompressedTokenAccountsByDelegate/erin","result":{"context":{"slot":1010},"value":{"items":[{"account":{"hash":"372AwxfrqmGcskkU7anVxvtm2JG86e4AUh9Z93uNXhpf","lamports":0,"leafIndex":12,"owner":"cTokenmWW8bLPjZEBAUgYy3zKxQZW6VKi7bqNFEVv3m","slotCreated":1003,"tree":"smt1NamzXdq4AMqS2fS2F1i5KTYPZRhoHgWx38d8WsT","address":null,"data":{"data":"iPkFx3sFwJMmd1aMUxN/sTtSuP5d7Rjg8IKvGdOhMH/AWJVM3JJ32mIRPn8gVdM3DpqH9BNuLXh9cNtei5+YjAcAAAAAAAAAAeqkKP/471PGrtGTVrD6tVHk+ootTAmijD8WmEm/eIYHAAA=","dataHash":"3KXCBirvi5wZHDc1PdSnBeeMTmBAusqKV7qB59XxDubA","discriminator":2},"seq":13},"tokenData":{"amount":7,"mint":"ADggf3dEtH8sJkGdomYRKLHSYma59StgJfoQezXBKpgW","owner":"Dwqd3QZ2eNTqQYf1VAU1CJQaQk6qoCUwtYeHbjdADGcK","state":"initialized","delegate":"Gnwax7qVJ7gstpFkTb9Hdhe3WaXkdY6pn2oHx3CzxX4S","tlv":null}}],"cursor":null}}}
