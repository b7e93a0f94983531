"""Family `onchain`: with `--chain`, the target's proofs before Light's own programs.

Every check of this folder has an id `onchain.<name>`, and `--only onchain` runs exactly them.
Registering: `checks`.
Used by this family alone: `plan`, `queued`, `roots`.
"""

from __future__ import annotations

from csi_conformance.harness.checks.onchain import checks  # noqa: F401  (imported for registration)
