"""Family `schema`: every answer validates against the contract, under the profile's readings.

Every check of this folder has an id `schema.<name>`, and `--only schema` runs exactly them.
Registering: `checks`.
"""

from __future__ import annotations

from csi_conformance.harness.checks.schema import checks  # noqa: F401  (imported for registration)
