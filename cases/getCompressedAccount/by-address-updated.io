// description: an address carried by an update names the new account
// clauses: 4.2-M1, 3.2-R1, 3.2-R2
// mode: exact
// scenario: default
>> {"jsonrpc":"2.0","id":"getCompressedAccount/by-address-updated","method":"getCompressedAccount","params":{"address":"1qd7ttTRWA21yuCcancFC2wzDKLwywwN36KDi81x6x3"}}
<< {"jsonrpc":"2.0","id":"getCompressedAccount/by-address-updated","result":{"context":{"slot":1010},"value":{"hash":"2H6UWuFrdppiVtdV4vTnBkcutsPpr8nfWNCYE6M8ew7n","lamports":11,"leafIndex":21,"owner":"6MiscGj9voYhAbkJvYpjLcCVR9kxqwJs5uo2RXF7BL3y","slotCreated":1007,"tree":"smt1NamzXdq4AMqS2fS2F1i5KTYPZRhoHgWx38d8WsT","address":"1qd7ttTRWA21yuCcancFC2wzDKLwywwN36KDi81x6x3","data":{"data":"cmVnaXN0ZXJlZCBhZ2Fpbg==","dataHash":"1UJdZyimUWhtEckFs1EzWmkmMjfjmVry2YJejt22Mer","discriminator":9007199254740993},"seq":24}}}
