"""How every report presents a run's verdict and its findings, so console, JSON, JUnit and HTML agree.

A vendor reads the verdict, then the first finding, then fixes it. So each finding is shown with
the member that is wrong (the JSON path its check named), both values as JSON (a Python
literal left in a message is re-written as JSON), and a way to reproduce it from the report
alone: the curl line the engine recorded, or one rebuilt from the request and the target.
"""

from __future__ import annotations

import ast
import re
import shlex
from collections.abc import Iterable
from dataclasses import dataclass

from harness.core.model import CheckResult, Finding, RunResult, Status
from schema import jsonio

__all__ = ["GroupedFindings", "Shown", "counts_line", "group_findings", "member_path", "occurrences_note",
           "reproduce", "shown", "skip_reason", "verdict_counts", "wrong_member"]

KIT_ERROR_NOTE = "an error of the kit, not of the target"
_PATH = re.compile(r"\$(?:\.[A-Za-z_][\w-]*|\[\d+\]|\[\*\]|\['[^']*'\])+|\$(?=[\s:,)]|$)")
_POINTER = re.compile(r"\bat (/[\w~./\-]*)")


@dataclass(frozen=True)
class Shown:
    """A finding's message split for display: the wrong member, the two values, and any other lines."""

    path: str | None
    expected: str | None
    received: str | None
    other: tuple[str, ...]


def shown(finding: Finding) -> Shown:
    """The message of `finding` as a report shows it; values that are Python literals become JSON."""
    expected = received = None
    other = []
    for line in finding.message.splitlines():
        if line.startswith("Expected:") and expected is None:
            expected = as_json_text(line[len("Expected:"):].strip())
        elif line.startswith("Received:") and received is None:
            received = as_json_text(line[len("Received:"):].strip())
        elif line.strip():
            other.append(line)
    return Shown(wrong_member(finding), expected, received, tuple(other))


def wrong_member(finding: Finding) -> str | None:
    """The member a finding is about: the path its check named, else the first one its message names."""
    return finding.path or member_path(finding.message)


def member_path(message: str) -> str | None:
    """The first JSON path (`$.result.value.items[3].leafIndex`) or JSON pointer (`at /result/value`)
    a message names: the member that is wrong. None when the message names none."""
    match = _PATH.search(message)
    if match:
        return match.group(0)
    pointer = _POINTER.search(message)
    return pointer.group(1) if pointer else None


def as_json_text(text: str) -> str:
    """`text` with the Python literals in it (`{'value': 100000}`, `['a', None]`, `'abc'`) written as JSON.

    Checks should write JSON themselves; this keeps a report readable when one still prints a repr.
    Only a whole literal is rewritten: one cut short (`…`) or prose with an apostrophe stays as it is.
    """
    if text in ("None", "True", "False"):
        return jsonio.dumps(ast.literal_eval(text))
    out, index = [], 0
    while index < len(text):
        end = _literal_end(text, index)
        converted = _literal(text[index:end]) if end else None
        if converted is None:
            out.append(text[index])
            index += 1
        else:
            out.append(converted)
            index = end
    return "".join(out)


def _literal_end(text: str, start: int) -> int | None:
    """Where a bracketed or quoted literal starting at `start` ends (exclusive); None when none starts there."""
    opening = text[start]
    if opening in "'\"":
        if start and not (text[start - 1].isspace() or text[start - 1] in "([{=:,"):
            return None
        end = _string_end(text, start)
        return end if end and (end == len(text) or text[end].isspace() or text[end] in ",;)]}:") else None
    if opening not in "[{(":
        return None
    depth, index = 0, start
    while index < len(text):
        char = text[index]
        if char in "'\"":
            index = _string_end(text, index) or len(text)
            continue
        depth += char in "[{("
        depth -= char in "]})"
        index += 1
        if depth == 0:
            return index
    return None


def _string_end(text: str, start: int) -> int | None:
    quote, index = text[start], start + 1
    while index < len(text):
        if text[index] == "\\":
            index += 2
            continue
        if text[index] == quote:
            return index + 1
        index += 1
    return None


def _literal(text: str) -> str | None:
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError, MemoryError, RecursionError, TypeError):
        return None
    if not isinstance(value, dict | list | tuple | str | set):
        return None
    try:
        return jsonio.dumps(_plain(value))
    except (TypeError, ValueError):
        return None


def _plain(value: object) -> object:
    if isinstance(value, dict):
        return {str(key): _plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [_plain(item) for item in (sorted(value, key=str) if isinstance(value, set | frozenset) else value)]
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return value


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


def verdict_counts(result: RunResult, gate: Status) -> str:
    """`2 findings at or above FAIL; checks: 40 PASS, 2 FAIL, 27 SKIP` — what a verdict banner says."""
    blocking = len(result.blocking(gate))
    parts = [f"{blocking} finding{'s' if blocking != 1 else ''} at or above {gate.value}"]
    errors = len(result.kit_errors())
    if errors:
        parts.append(f"{errors} error{'s' if errors != 1 else ''} of the kit")
    return "; ".join(parts) + f"; checks: {counts_line(result)}"


def counts_line(result: RunResult) -> str:
    """Checks per status, the non-zero ones, worst first: `2 FAIL, 40 PASS, 27 SKIP`."""
    counts = result.counts()
    ordered = sorted((s for s in Status if counts[s.value]), key=lambda s: -s.rank)
    return ", ".join(f"{counts[s.value]} {s.value}" for s in ordered) or "none ran"


def skip_reason(check: CheckResult) -> str | None:
    """Why a SKIP check examined nothing: `not run` when it never ran (not selected here, another shard's,
    or the run ended first), else the reason the engine recorded. None for a check that is not SKIP."""
    if check.status is not Status.SKIP:
        return None
    if not check.runs and not check.skipped and not check.incomplete:
        return "not run"
    return check.skip_reason
