// description: discriminator u64 max and empty data, as exact integers
// clauses: 4.2-M1, 2.1-R6, 2.4-R1
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedAccount/by-hash-u64-discriminator","method":"getCompressedAccount","params":{"hash":"2V1DUTYRpjGi7kqo6VkCNL3H762kdLMFfTrHJsHM4DQ2"}}
<< {"jsonrpc":"2.0","id":"getCompressedAccount/by-hash-u64-discriminator","result":{"context":{"slot":1010},"value":{"hash":"2V1DUTYRpjGi7kqo6VkCNL3H762kdLMFfTrHJsHM4DQ2","lamports":0,"leafIndex":4,"owner":"6MiscGj9voYhAbkJvYpjLcCVR9kxqwJs5uo2RXF7BL3y","slotCreated":1000,"tree":"smt1NamzXdq4AMqS2fS2F1i5KTYPZRhoHgWx38d8WsT","address":"14FFV8JdMnbZJjpTwGY2Pavb4doYXECbDsRxb23DYqYJ","data":{"data":"","dataHash":"1QWQ6oJuTvGkQFLShm6LFRjW5svHXQXHtLjeaDtFJtg","discriminator":18446744073709551615},"seq":5}}}
