"""Known findings (`csi run --baseline FILE`): a run fails only on new ones.

A baseline is a YAML or JSON list of entries; `method` and `title` narrow an entry, and a
missing or null one matches anything:

    - {check: consistency.balance-by-owner, method: getCompressedBalanceByOwner}
    - {check: differential.cases, method: getValidityProof, title: Error code differs from the reference}
    - {check: transport.post-only, reason: "our gateway answers GET with a landing page"}

A previous `report.json` is a baseline too: its findings are read as entries.

A baselined finding is still reported, marked as such, but the gate does not count it. An
entry whose check ran and matched nothing is *stale*: the fault is gone, or the baseline is
out of date. Stale entries are listed in the console and in report.json, and do not change the
exit code: a target's findings can come and go with its load (a timeout, a 429), and a run cut
short by `--max-requests` or a stop sees fewer of them, so failing on a stale entry would make
a CI gate flaky for reasons that are not regressions. An entry whose check did not run (not
selected, or SKIP) is neither matched nor stale.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import yaml
from csi_conformance.groundwork import jsonio
from csi_conformance.harness.core.errors import ConfigError, JsonError
from csi_conformance.harness.core.model import BaselineEntry, RunResult, Status

__all__ = ["apply_baseline", "load_baseline"]

_MEMBERS = {"check", "method", "title", "reason"}


def load_baseline(path: Path, *, checks: set[str], methods: set[str]) -> list[BaselineEntry]:
    """The entries of a baseline file; `ConfigError` (exit 2) for a file that cannot work.

    `checks` and `methods` are the known check ids and method names: a typo would otherwise
    excuse nothing and go unnoticed.
    """
    document = _read(path)
    if isinstance(document, dict) and isinstance(document.get("findings"), list):
        document = [{"check": f.get("check_id"), "method": f.get("method"), "title": f.get("title")}
                    for f in document["findings"] if isinstance(f, dict)]
    if not isinstance(document, list):
        raise ConfigError(f"{path}: a baseline is a list of {{check, method, title}} entries (or a report.json)")
    return [_entry(path, index, item, checks, methods) for index, item in enumerate(document)]


def _read(path: Path) -> Any:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read the baseline: {exc}") from exc
    as_json = Path(path).suffix == ".json"
    try:
        return jsonio.loads(text) if as_json else yaml.safe_load(text)
    except (JsonError, yaml.YAMLError) as exc:
        raise ConfigError(f"{path}: not valid {'JSON' if as_json else 'YAML'}: {exc}") from exc


def _entry(path: Path, index: int, item: Any, checks: set[str], methods: set[str]) -> BaselineEntry:
    where = f"{path}: entry {index + 1}"
    if not isinstance(item, dict) or not isinstance(item.get("check"), str):
        raise ConfigError(f"{where}: an entry is a mapping with a `check` id")
    unknown = set(item) - _MEMBERS
    if unknown:
        raise ConfigError(f"{where}: unknown member(s) {', '.join(sorted(map(str, unknown)))}; "
                          f"an entry has {', '.join(sorted(_MEMBERS))}")
    for name in ("method", "title", "reason"):
        if item.get(name) is not None and not isinstance(item[name], str):
            raise ConfigError(f"{where}: `{name}` must be a string or null")
    if item["check"] not in checks:
        raise ConfigError(f"{where}: no check {item['check']!r} (see `csi checks`)")
    if item.get("method") is not None and item["method"] not in methods:
        raise ConfigError(f"{where}: no method {item['method']!r} in the contract")
    return BaselineEntry(item["check"], item.get("method"), item.get("title"))


def apply_baseline(result: RunResult, entries: list[BaselineEntry]) -> None:
    """Mark the findings an entry matches as baselined, and list the entries that went stale."""
    ran = {check.check_id for check in result.checks if check.status is not Status.SKIP}
    matched: set[BaselineEntry] = set()
    for check in result.checks:
        for index, finding in enumerate(check.findings):
            hits = [entry for entry in entries if entry.matches(finding)]
            if hits:
                matched.update(hits)
                check.findings[index] = dataclasses.replace(finding, baselined=True)
    result.baseline = list(entries)
    result.stale_baseline = [entry for entry in entries if entry not in matched and entry.check in ran]
