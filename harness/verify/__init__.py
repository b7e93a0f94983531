"""What the ledger's own rules say about a value, a token account or a proof (ledger-facts.md).

`values` and `validity` are pure functions over answers already parsed; `addresses` also asks the
target, once per run (cached), which address tree it serves and which addresses it holds; `batched` and
`merkle_context` read where a batched tree's account is. Only what two families or more use lives here: a
family's own helpers sit in its folder (`harness/checks/<family>/`), which also decides what to ask and report.
"""
