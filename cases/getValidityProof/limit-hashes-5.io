// description: 5 hashes: a count outside the allowed ones
// clauses: 4.2-M17, 8-L1, 4.3-R1, 7-C2
// mode: invariant:error
// scenario: default
>> {"jsonrpc":"2.0","id":"getValidityProof/limit-hashes-5","method":"getValidityProof","params":{"hashes":["3b87PJpKvNqc91TG3Ut2u4uFGWfQEMRTStSDJow1Ewxu","2QQdESHLFgSXxZbUerpnBab3F88eirEDd9rxdUov56HH","3Mwad5c3AQiTBC84bHtGWzapD2hZPgMfXXz7KVdo4jsv","2xtjyznRzeEhSBbaGgNU6YPxA3odVfau36BGxxy7Ze8R","2cXKbXNqyRQ7cyFFCX6nWpgr6Cb5hSDwwSgTjfURjvqc"]}}
<< {"jsonrpc":"2.0","id":"getValidityProof/limit-hashes-5","error":{"code":-32602,"message":"Invalid params: 5 hashes given, allowed counts are [1, 2, 3, 4, 8]"}}
