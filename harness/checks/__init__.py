"""The check catalogue. Importing this package registers every check with `harness.core.registry`.

One module per family; `csi checks` lists them all with their clauses.
"""

from csi_conformance.harness.checks import (  # noqa: F401  (imported for registration)
    balances,
    batched,
    consistency,
    crypto,
    differential,
    envelope,
    health,
    limits,
    mirror,
    onchain,
    pagination,
    params,
    proofs,
    schemas,
    served,
    tokens,
    transactions,
    transport,
    v2,
)
