"""The harness: drives a target over HTTP and judges its answers against the contract.

The Python API is this module's names, the same run `csi run` and the pytest plugin make:

    from csi_conformance.harness import certify
    result = certify({"target": "https://indexer.example", "only": ["health"]})
    result.exit_code(), result.verdict(), [f.title for f in result.findings]

`certify` takes `RunOptions` or a mapping of `csi run`'s option names (read as `RunOptions.from_inputs`
reads them), writes the reports to `report_dir` (None writes none) and returns the `RunResult`.
The names are imported when first used, so that importing one room of the harness does not load them all.
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["Basis", "CheckResult", "Finding", "RunOptions", "RunResult", "Status", "certify"]

_HOMES = {"Basis": ".core.model", "CheckResult": ".core.model", "Finding": ".core.model", "RunResult": ".core.model",
          "Status": ".core.model", "RunOptions": ".engine.options", "certify": ".engine.session"}


def __getattr__(name: str) -> Any:
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(_HOMES[name], __package__), name)


def __dir__() -> list[str]:
    return sorted(__all__)
