"""Family `crypto`: hashes, values and proofs judged by the ledger's own rules.

Every check of this folder has an id `crypto.<name>`, and `--only crypto` runs exactly them.
Registering: `batched`, `checks`, `proofs`, `tokens`.
Used by this family alone: `known_trees`, `token_hashes`, `tree_diagnosis`, `tree_roots`, `trees`.
"""

from __future__ import annotations

from csi_conformance.harness.checks.crypto import (  # noqa: F401  (imported for registration, in this order)
    batched,
    checks,
    proofs,
    tokens,
)
