"""Family `params`: requests the spec forbids get an error, never a result and never a 5xx.

Every check of this folder has an id `params.<name>`, and `--only params` runs exactly them.
Registering: `checks`.
"""

from __future__ import annotations

from csi_conformance.harness.checks.params import checks  # noqa: F401  (imported for registration)
