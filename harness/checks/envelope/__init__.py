"""Family `envelope`: JSON-RPC 2.0 framing of every answer, and how odd requests are met.

Every check of this folder has an id `envelope.<name>`, and `--only envelope` runs exactly them.
Registering: `checks`.
"""

from __future__ import annotations

from csi_conformance.harness.checks.envelope import checks  # noqa: F401  (imported for registration)
