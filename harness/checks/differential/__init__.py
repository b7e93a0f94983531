"""Family `differential`: the target's answers against the reference's, over a scenario or a mirror of the target.

Every check of this folder has an id `differential.<name>`, and `--only differential` runs exactly them.
Registering: `checks`, `mirror.checks`.
Used by this family alone: `marked`, `normalize`, `optional`, `readings`, `replay`, `requests`.
"""

from __future__ import annotations

from csi_conformance.harness.checks.differential import checks  # noqa: F401  (imported for registration)
from csi_conformance.harness.checks.differential.mirror import checks as mirror_checks  # noqa: F401
