"""What the ledger's own rules say about a value, a token account or a proof (ledger-facts.md).

`values` and `validity` are pure functions over answers already parsed; `addresses` also asks the
target, once per run (cached), which address tree it serves and which addresses it holds. `trees`
rebuilds the states a tree can have had at a seq from what discovery saw (`known_trees`), and
`tree_roots` judges served roots against them or against a reference (`crypto.tree-roots`). The
checks of `harness.checks.crypto` and `harness.checks.limits` decide what to ask and report.
"""
