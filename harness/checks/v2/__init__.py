"""Family `v2`: the answers of the API clients call today judged for what they mean.

Every check of this folder has an id `v2.<name>`, and `--only v2` runs exactly them.
Registering: `checks`.
"""

from __future__ import annotations

from csi_conformance.harness.checks.v2 import checks  # noqa: F401  (imported for registration)
