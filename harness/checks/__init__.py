"""The check catalogue: one folder per family (`checks/<family>/`), holding its checks and the helpers only it
uses. Importing this package registers every check with `harness.core.registry` (the run's order is its
`FAMILIES`).

What two families share lives below, in `harness.judging` and `harness.verify`; `csi checks` lists every check
with its clauses.
"""

from csi_conformance.harness.checks import (  # noqa: F401  (imported for registration)
    consistency,
    crypto,
    differential,
    envelope,
    health,
    limits,
    onchain,
    pagination,
    params,
    schema,
    transport,
    v2,
)
