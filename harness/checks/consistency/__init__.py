"""Family `consistency`: answers of different methods about the same state agree with each other.

Every check of this folder has an id `consistency.<name>`, and `--only consistency` runs exactly them.
Registering: `balances`, `checks`, `transactions`.
Used by this family alone: `live`.
"""

from __future__ import annotations

from csi_conformance.harness.checks.consistency import (  # noqa: F401  (imported for registration, in this order)
    balances,
    checks,
    transactions,
)
