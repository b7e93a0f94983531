"""Family `transport`: HTTP status, content type, both path forms (§4.1) and the api-key (§5).

Every check of this folder has an id `transport.<name>`, and `--only transport` runs exactly them.
Registering: `checks`.
"""

from __future__ import annotations

from csi_conformance.harness.checks.transport import checks  # noqa: F401  (imported for registration)
