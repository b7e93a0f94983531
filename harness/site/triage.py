"""`triage.yaml`: which issue tracks a known failure of a target, shown in its cells and usable as a baseline.

    - {target: photon-helius, check: envelope.error-object, issue: "https://github.com/o/r/issues/12"}
    - {target: photon-helius, clause: 4.1-R6, issue: "https://github.com/o/r/issues/13"}

An entry names a target (as the site names it: `--target-name`, else its URL), one check or one clause,
and the issue link. `csi site baseline triage.yaml report.json` turns the entries of that report's target
into a `--baseline` file (a clause becomes every check of the run that cites it), so the CI gate of that
target fails only on failures nobody has triaged yet.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from csi_conformance.harness.core.errors import ConfigError
from csi_conformance.harness.core.model import RunResult

__all__ = ["Triage", "baseline_entries", "issues_for", "load_triage"]

_MEMBERS = {"target", "check", "clause", "issue", "note"}


@dataclass(frozen=True)
class Triage:
    target: str
    issue: str
    check: str | None = None
    clause: str | None = None


def load_triage(path: Path) -> list[Triage]:
    """The entries of a triage file, sorted; `ConfigError` with one line for a file that cannot work."""
    try:
        document = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise ConfigError(f"{path}: cannot read the triage file: {' '.join(str(exc).split())}") from None
    if not isinstance(document, list):
        raise ConfigError(f"{path}: a triage file is a list of {{target, check or clause, issue}} entries")
    entries = [_entry(f"{path}: entry {index + 1}", item) for index, item in enumerate(document)]
    return sorted(set(entries), key=lambda e: (e.target, e.check or "", e.clause or "", e.issue))


def _entry(where: str, item: Any) -> Triage:
    if not isinstance(item, dict):
        raise ConfigError(f"{where}: an entry is a mapping of target, check or clause, and issue")
    unknown = set(map(str, item)) - _MEMBERS
    if unknown:
        raise ConfigError(f"{where}: unknown member(s) {', '.join(sorted(unknown))}")
    for name in ("target", "issue"):
        if not isinstance(item.get(name), str) or not item[name]:
            raise ConfigError(f"{where}: `{name}` is required, a string")
    if (item.get("check") is None) == (item.get("clause") is None):
        raise ConfigError(f"{where}: name exactly one of `check` or `clause`")
    if not all(isinstance(item.get(name), str | None) for name in ("check", "clause")):
        raise ConfigError(f"{where}: `check` and `clause` are strings")
    if not item["issue"].startswith(("https://", "http://")):
        raise ConfigError(f"{where}: `issue` is a link (https://…)")
    return Triage(item["target"], item["issue"], item.get("check"), item.get("clause"))


def issues_for(entries: Iterable[Triage], target: str, checks: Iterable[str] = (),
               clauses: Iterable[str] = ()) -> list[str]:
    """The issue links that triage any of `checks` or `clauses` on `target`."""
    checks, clauses = set(checks), set(clauses)
    return sorted({e.issue for e in entries if e.target == target and (e.check in checks or e.clause in clauses)})


def baseline_entries(entries: Iterable[Triage], result: RunResult) -> list[dict[str, str]]:
    """Baseline entries (`csi run --baseline`) for the run's target: each triaged check, with its issue."""
    target = result.target_name or result.target
    found: dict[str, set[str]] = {}
    for check in result.checks:
        for issue in issues_for(entries, target, [check.check_id], check.clauses):
            found.setdefault(check.check_id, set()).add(issue)
    return [{"check": check, "reason": " ".join(sorted(issues))} for check, issues in sorted(found.items())]
