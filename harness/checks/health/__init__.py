"""Family `health`: getIndexerHealth, getIndexerSlot, and every method of the contract served.

Every check of this folder has an id `health.<name>`, and `--only health` runs exactly them.
Registering: `checks`, `served`.
"""

from __future__ import annotations

from csi_conformance.harness.checks.health import checks, served  # noqa: F401  (imported for registration)
