// description: 8 hashes with an address: no combined circuit (observed)
// clauses: 4.2-M17, 8-L1, 8-L2
// mode: invariant:error
// scenario: default
>> {"jsonrpc":"2.0","id":"getValidityProof/error-combined-too-many","method":"getValidityProof","params":{"hashes":["3b87PJpKvNqc91TG3Ut2u4uFGWfQEMRTStSDJow1Ewxu","2QQdESHLFgSXxZbUerpnBab3F88eirEDd9rxdUov56HH","3Mwad5c3AQiTBC84bHtGWzapD2hZPgMfXXz7KVdo4jsv","2xtjyznRzeEhSBbaGgNU6YPxA3odVfau36BGxxy7Ze8R","2cXKbXNqyRQ7cyFFCX6nWpgr6Cb5hSDwwSgTjfURjvqc","fGECZ8v58zChPsjh8tPkTFVeMFBwwPoJxKivic52fgg","3J6nLeBJY3o5DtZAeiyG2vJodHteByeks1wpe4qb6RHL","2yCbUTrbE6KTR3c8HeqN6uHLkVPZCuK4bPZSmhkAPyGx"],"newAddressesWithTrees":[{"address":"143yczMDMXsZTJE9AnHveBWq8mvSBzruCZyEHLSj6DFf","tree":"amt1Ayt45jfbdw5YSo7iz6WZxUmnZsQTYXy82hVwyC2"}]}}
<< {"jsonrpc":"2.0","id":"getValidityProof/error-combined-too-many","error":{"code":-32602,"message":"Invalid params: 8 hashes with 1 new addresses: a combined proof takes at most 4 hashes with 2 addresses"}}
