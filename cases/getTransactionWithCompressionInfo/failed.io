// description: a failed transaction involves no compressed account: null
// clauses: 4.2-M10, 7-N2, 4.2-N7
// mode: invariant:null-answer
// scenario: default
>> {"jsonrpc":"2.0","id":"getTransactionWithCompressionInfo/failed","method":"getTransactionWithCompressionInfo","params":{"signature":"33dfmTW1kjSGGidYUfzkP5qsaJ98kWpj91Dy6rSxvgKqfEJ4NMeVvNURsuJ733uecvCy2ajDKa6pVuprAMt4YQCt"}}
<< {"jsonrpc":"2.0","id":"getTransactionWithCompressionInfo/failed","result":null}
