"""`csi site`: every target's reports side by side, as a static site (docs/how-to/site.md).

    paths = build_site([Path("a/report.json"), Path("b/report.json")], Path("site"))

The room sits above the engine and below the faces: it reads reports (`harness.report`), never runs one.
"""

from __future__ import annotations

from csi_conformance.harness.site.build import build_site
from csi_conformance.harness.site.triage import baseline_entries, load_triage

__all__ = ["baseline_entries", "build_site", "load_triage"]
