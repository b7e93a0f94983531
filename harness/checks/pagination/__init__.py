"""Family `pagination`: walks at several page sizes agree with the unpaged list (§4.1).

Every check of this folder has an id `pagination.<name>`, and `--only pagination` runs exactly them.
Registering: `checks`.
Used by this family alone: `param_walks`.
"""

from __future__ import annotations

from csi_conformance.harness.checks.pagination import checks  # noqa: F401  (imported for registration)
