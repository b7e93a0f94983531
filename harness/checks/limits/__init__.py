"""Family `limits`: §4.3 and §8 counts accepted and refused at each edge, and `limit` bounds.

Every check of this folder has an id `limits.<name>`, and `--only limits` runs exactly them.
Registering: `checks`.
"""

from __future__ import annotations

from csi_conformance.harness.checks.limits import checks  # noqa: F401  (imported for registration)
