"""`csi report diff A B`: what changed between two runs of one target, check by check.

A CI gate on a deploy asks "did this regress?", not "is it conformant?": a target with known
findings should still fail the build when something new breaks. Each check of either run is put in
one of these kinds (a check absent from a run counts as not run there):

- new failure: FAIL now, not before; stopped running: judged before, not now (SKIP, N/A, an error of
  the kit, or absent): a check that went quiet cannot be called fixed, so both are regressions;
- fixed: FAIL before, judged and not FAIL now; started: not judged before, judged now;
- still failing: FAIL in both; changed: any other change of status (PASS to WARN, SKIP to N/A).

Two runs compare only over one contract and one ledger; reports of another format are refused.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from csi_conformance.groundwork import jsonio
from csi_conformance.harness.core.model import RunResult, Status

__all__ = ["JUDGED", "KINDS", "REGRESSIONS", "Change", "diff_runs", "incomparable", "render",
           "run_label"]

JUDGED = frozenset({Status.PASS, Status.INFO, Status.AMBIGUOUS, Status.WARN, Status.FAIL})
"""Statuses that say something of the target; SKIP, N/A, UNVERIFIED and ERROR do not."""
KINDS = ("new failure", "stopped running", "fixed", "started", "still failing", "changed")
"""Every kind of change, in the order the outputs list them."""
REGRESSIONS = frozenset({"new failure", "stopped running"})
LINED_UP = (("spec_version", "contract"), ("ledger", "ledger"))
"""What two runs must share to compare: (field, how the one line names it)."""


@dataclass(frozen=True)
class Change:
    """One check whose status moved between the two runs (None: the check is not in that run)."""

    check: str
    before: Status | None
    after: Status | None
    kind: str

    def as_json(self) -> dict[str, Any]:
        return {"check": self.check, "kind": self.kind, "regression": self.kind in REGRESSIONS,
                "before": self.before.value if self.before else None,
                "after": self.after.value if self.after else None}


def run_label(result: RunResult) -> str:
    """How a run is named: the declared name (else the URL) and version."""
    name = result.target_name or result.target
    return f"{name} {result.target_version}" if result.target_version else name


def incomparable(before: RunResult, after: RunResult) -> str | None:
    """Why two runs cannot be compared (another contract or ledger), on one line; None when they can."""
    for field, name in LINED_UP:
        first, second = getattr(before, field), getattr(after, field)
        if first != second:
            return f"the runs are over another {name}: {first or 'none'} and {second or 'none'}"
    return None


def diff_runs(before: RunResult, after: RunResult) -> list[Change]:
    """Every check whose status moved, ordered by kind then check id."""
    old = {check.check_id: check.status for check in before.checks}
    new = {check.check_id: check.status for check in after.checks}
    changes = []
    for check in sorted(old.keys() | new.keys()):
        kind = _kind(old.get(check), new.get(check))
        if kind is not None:
            changes.append(Change(check, old.get(check), new.get(check), kind))
    return sorted(changes, key=lambda change: (KINDS.index(change.kind), change.check))


def _kind(before: Status | None, after: Status | None) -> str | None:
    failed, fails = before is Status.FAIL, after is Status.FAIL
    judged_before, judged_after = before in JUDGED, after in JUDGED
    if fails:
        return "still failing" if failed else "new failure"
    if judged_before and not judged_after:
        return "stopped running"
    if failed:
        return "fixed"
    if judged_after and not judged_before:
        return "started"
    return "changed" if before != after else None


def _status(status: Status | None) -> str:
    return status.value if status is not None else "absent"


def render(before: RunResult, after: RunResult, changes: list[Change], form: str = "text") -> str:
    """The changes as `text` (a terminal), `markdown` (a pull-request comment) or `json`."""
    regressions = [change for change in changes if change.kind in REGRESSIONS]
    if form == "json":
        return jsonio.dumps({"before": run_label(before), "after": run_label(after),
                             "regressions": len(regressions), "changes": [c.as_json() for c in changes]}) + "\n"
    tally = ", ".join(f"{kind} {sum(1 for c in changes if c.kind == kind)}" for kind in KINDS
                      if any(c.kind == kind for c in changes)) or "no check changed"
    head = f"{run_label(before)} -> {run_label(after)}: {len(regressions)} regression(s); {tally}"
    if form == "markdown":
        rows = [f"| {c.kind}{' (regression)' if c.kind in REGRESSIONS else ''} | `{c.check}` | "
                f"{_status(c.before)} | {_status(c.after)} |" for c in changes]
        table = ["", "| change | check | before | after |", "|---|---|---|---|", *rows] if rows else []
        return "\n".join([f"### csi report diff\n\n{_md(head)}", *(_md(row) for row in table)]) + "\n"
    lines = [head] + [f"  {c.kind:<16} {c.check}  {_status(c.before)} -> {_status(c.after)}" for c in changes]
    return "\n".join(lines) + "\n"


def _md(text: str) -> str:
    """A line of Markdown with the characters a target's name could use to inject markup neutralised."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
