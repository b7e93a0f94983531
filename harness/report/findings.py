"""How every report presents a run's verdict and its findings, so console, JSON, JUnit and HTML agree.

A vendor reads the verdict, then the first finding, then fixes it. So each finding is shown with
the member that is wrong (the JSON path its check named), both values, and a way to reproduce it
from the report alone: the curl line the engine recorded, or one rebuilt from the request and the
target. A finding holds its values as JSON values (`Finding.expected`, `received`, `detail`);
every sentence here is built from them, and nothing is parsed back out of a sentence.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from csi_conformance.groundwork import jsonio
from csi_conformance.harness.core.model import KINDS, CheckResult, Finding, RunResult, Status

__all__ = ["GroupedFindings", "Shown", "counts_line", "example_line", "group_findings", "occurrences_note",
           "rendered", "reproduce", "shown", "skip_reason", "verdict_counts", "verdict_reasons"]

KIT_ERROR_NOTE = "an error of the kit, not of the target"


@dataclass(frozen=True)
class Shown:
    """A finding as the text reports show it: the wrong member, the two values, and its other facts."""

    path: str | None
    expected: str
    received: str
    detail: tuple[str, ...]


def shown(finding: Finding, limit: int | None = None) -> Shown:
    """The text of a finding's values: as exact JSON for a kind whose values are exact (a string quoted),
    a string as the words it is otherwise; each cut to `limit` characters when one is given."""
    exact = KINDS[finding.kind].exact if finding.kind in KINDS else False
    detail = tuple(f"{name}: {rendered(value, exact=False, limit=limit)}" for name, value in finding.detail.items())
    return Shown(finding.path, rendered(finding.expected, exact=exact, limit=limit),
                 rendered(finding.received, exact=exact, limit=limit), detail)


def rendered(value: Any, *, exact: bool, limit: int | None = None) -> str:
    """One value as text: compact JSON (integers exact), or the string itself when words are allowed."""
    text = value if isinstance(value, str) and not exact else jsonio.dumps(value)
    return text if limit is None or len(text) <= limit else text[: limit - 1] + "…"


def example_line(finding: Finding, example: dict[str, Any], limit: int | None = None) -> str:
    """One other occurrence of a grouped finding on one line: where, and its two values."""
    exact = KINDS[finding.kind].exact if finding.kind in KINDS else False
    where = f"at {example['path']}: " if example.get("path") else ""
    return (f"{where}expected {rendered(example.get('expected'), exact=exact, limit=limit)}, "
            f"received {rendered(example.get('received'), exact=exact, limit=limit)}")


def reproduce(finding: Finding, target: str) -> str | None:
    """A shell line that sends the finding's request again: the engine's curl line, or one rebuilt from
    the request and the target (the key read from $CSI_API_KEY). None when no request is tied to it."""
    if finding.curl:
        return finding.curl
    if finding.request is None:
        return None
    url = target if target.startswith(("http://", "https://")) else "${CSI_TARGET}"
    url = url.replace("api-key=REDACTED", "api-key=${CSI_API_KEY}")
    body = jsonio.dumps(finding.request) if not isinstance(finding.request, str) else finding.request
    return f'curl -sS -i "{url}" -H \'Content-Type: application/json\' --data-binary {shlex.quote(body)}'


def occurrences_note(finding: Finding) -> str:
    """`seen in 22 answers` for a grouped finding; empty for a single one."""
    return f"seen in {finding.occurrences} answers" if finding.occurrences > 1 else ""


@dataclass(frozen=True)
class GroupedFindings:
    """The findings of one check, by method (None for findings not tied to one)."""

    check_id: str
    status: Status
    by_method: tuple[tuple[str | None, tuple[Finding, ...]], ...]

    @property
    def count(self) -> int:
        return sum(len(findings) for _, findings in self.by_method)


def group_findings(findings: Iterable[Finding]) -> list[GroupedFindings]:
    """Findings grouped by check, then by method; the worst check first, worst finding first within."""
    checks: dict[str, dict[str | None, list[Finding]]] = {}
    for finding in findings:
        checks.setdefault(finding.check_id, {}).setdefault(finding.method, []).append(finding)
    groups = []
    for check_id, methods in checks.items():
        by_method = []
        for method, items in methods.items():
            items.sort(key=lambda f: (-f.status.rank, f.baselined, f.title))
            by_method.append((method, tuple(items)))
        by_method.sort(key=lambda pair: (-_worst(pair[1]).rank, pair[0] or ""))
        groups.append(GroupedFindings(check_id, _worst(f for _, fs in by_method for f in fs), tuple(by_method)))
    groups.sort(key=lambda group: (-group.status.rank, group.check_id))
    return groups


def _worst(findings: Iterable[Finding]) -> Status:
    """The worst status of some findings."""
    return Status.worst(f.status for f in findings)


def verdict_reasons(result: RunResult, gate: Status = Status.FAIL) -> list[str]:
    """Why a run is not simply conformant or not, in the order a reader needs them: it did not start,
    it could not certify the target at all, it was interrupted, it stopped asking, it is inconclusive,
    and (under `--fail-on skip`) which checks could have applied and examined nothing, with why."""
    reasons = [f"the run did not start: {result.error}"] if result.error else []
    reasons += [result.precondition] if result.precondition else []
    if result.interrupted:
        reasons.append("the run was interrupted: checks that did not run are SKIP")
    reasons += list(result.inconclusive)
    if result.stopped and result.stopped not in reasons:
        reasons.append(f"{result.stopped}; later checks are SKIP")
    unexamined = result.unexamined(gate)
    if unexamined:
        named = "; ".join(f"{check.check_id} ({skip_reason(check)})" for check in unexamined)
        reasons.append(f"--fail-on skip: {len(unexamined)} check(s) that could apply examined nothing: {named}")
    return reasons


def verdict_counts(result: RunResult, gate: Status) -> str:
    """`2 findings at or above FAIL; checks: 40 PASS, 2 FAIL, 27 SKIP` — what a verdict banner says."""
    blocking = len(result.blocking(gate))
    parts = [f"{blocking} finding{'s' if blocking != 1 else ''} at or above {gate.value}"]
    errors = len(result.kit_errors())
    if errors:
        parts.append(f"{errors} error{'s' if errors != 1 else ''} of the kit")
    excused = sum(1 for finding in result.findings if finding.baselined)
    if excused:
        parts.append(f"{excused} known finding{'s' if excused != 1 else ''} excused by the baseline")
    return "; ".join(parts) + f"; checks: {counts_line(result)}"


def counts_line(result: RunResult) -> str:
    """Checks per status, the non-zero ones, worst first: `2 FAIL, 40 PASS, 27 SKIP`."""
    counts = result.counts()
    ordered = sorted((s for s in Status if counts[s.value]), key=lambda s: -s.rank)
    return ", ".join(f"{counts[s.value]} {s.value}" for s in ordered) or "none ran"


def skip_reason(check: CheckResult) -> str | None:
    """Why a SKIP or N/A check examined nothing: `not run` when it never ran (the run ended first), else the
    reason the engine recorded (for a check another shard owns, that it does). None for any other status."""
    if check.status is Status.NOT_APPLICABLE:
        return check.skip_reason
    if check.status is not Status.SKIP:
        return None
    if not check.runs and not check.skipped and not check.incomplete:
        return "not run"
    return check.skip_reason
