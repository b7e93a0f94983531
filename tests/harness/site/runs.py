"""Real reports for the site and diff tests: the kit run on loopback against the reference and broken variants.

Each run is narrowed (`only`) to the envelope and transport families, a fraction of a second each; the
tests build the set once per session. `vendor` is one target run at two declared versions: clean at 1.9,
serving HTML for JSON at 1.10 (a planted regression), and at 1.9 again narrowed to one family (checks
that stopped running).
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

from csi_conformance.harness.engine.session import certify

from tests.harness.broken import Variant, all_variants, serving

ONLY = ["envelope", "transport"]
BROKEN = ("html-health", "result-beside-error", "batch-first-only")
"""Three broken variants, one fault each (`tests/harness/variants_envelope_transport.py`)."""
REFERENCE = "reference"
PHOTON = "photon-366a15b"


def _variant(name: str | None) -> Variant | None:
    return None if name is None else next(v for v in all_variants() if v.name == name)


def certified(folder: Path, name: str, variant: str | None, *, version: str | None = None,
              only: list[str] = ONLY, api: str | None = None, scenario: str | None = None) -> Path:
    """Run the kit against `variant` (None: the clean reference) served on loopback, over `scenario` when given;
    the report.json."""
    out = folder / (f"{name}-{version}" if version else name)
    options: dict[str, Any] = {"only": only, "report-dir": str(out), "target-name": name}
    if version:
        options["target-version"] = version
    if api:
        options["api"] = api
    if scenario:
        options["scenario"] = scenario
    with contextlib.ExitStack() as stack:
        options["target"] = stack.enter_context(serving(_variant(variant), api=api))
        certify(options)
    return out / "report.json"


def all_reports(folder: Path) -> dict[str, Path]:
    """Every report the tests read, by a short name."""
    reports = {REFERENCE: certified(folder, REFERENCE, None)}
    reports |= {name: certified(folder, name, name) for name in BROKEN}
    reports[PHOTON] = certified(folder, "photon-reference", None, api=PHOTON)
    reports["vendor-1.9"] = certified(folder, "vendor", None, version="1.9")
    reports["vendor-1.10"] = certified(folder, "vendor", "html-health", version="1.10")
    reports["vendor-narrow"] = certified(folder, "vendor-narrow", None, version="1.9", only=["envelope"])
    return reports
