"""Markdown for a CI page, read from a `report.json`: the job's step summary and a pull-request comment.

Both are written from the report document (not from a `RunResult`), so that a CI step can render a report
that another job wrote. Every value that may carry a target's text is made inert first: one table cell,
no HTML, no mention that would notify someone, no Markdown that would break the table.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

__all__ = ["COMMENT_MARKER", "comment_body", "failures", "step_summary"]

COMMENT_MARKER = "<!-- csi-conformance:{key} -->"
"""The hidden first line of a pull-request comment: the comment of the same job is found by it and updated."""
CELL_LIMIT = 200
"""Characters of one table cell: a title echoing a target's answer stays one readable line."""
ROW_LIMIT = 200
"""Findings listed in one table: GitHub cuts a comment at 65,536 characters and a summary at 1 MiB."""
_UNSAFE = re.compile(r"[\x00-\x1f\x7f]+")
_MARKUP = str.maketrans({"|": r"\|", "<": "&lt;", ">": "&gt;", "@": "&#64;", "`": "'", "[": r"\[", "]": r"\]"})
_ICONS = {"conformant": "✅", "not conformant": "❌", "inconclusive": "⚠️", "not run": "⛔"}


def cell(value: Any) -> str:
    """One value as an inert table cell: one line, no HTML, no mention, at most `CELL_LIMIT` characters."""
    text = _UNSAFE.sub(" ", "" if value is None else str(value)).strip()
    if len(text) > CELL_LIMIT:
        text = text[:CELL_LIMIT - 1] + "…"
    return text.translate(_MARKUP) or "–"


def failures(report: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The report's FAIL findings, in the report's order."""
    return [f for f in _list(report.get("findings")) if isinstance(f, Mapping) and f.get("status") == "FAIL"]


def verdict_line(report: Mapping[str, Any]) -> str:
    """The verdict, the gate and the exit code in one line."""
    gate = report.get("gate") if isinstance(report.get("gate"), Mapping) else {}
    verdict = str(gate.get("verdict", "unknown"))
    return (f"{_ICONS.get(verdict, '')} **{cell(verdict)}** — exit code {cell(gate.get('exit_code'))}, "
            f"gate {cell(gate.get('threshold'))}: {cell(gate.get('blocking'))} blocking finding(s)").lstrip()


def step_summary(report: Mapping[str, Any], *, title: str = "Compressed-State Indexer conformance") -> str:
    """The job's summary: verdict, what was run, the status counts and every FAIL."""
    lines = [f"## {cell(title)}", "", verdict_line(report), "", _about(report), "", _counts(report), ""]
    lines += _failure_table(failures(report))
    return "\n".join(lines) + "\n"


def comment_body(report: Mapping[str, Any], *, key: str) -> str:
    """A pull-request comment: the verdict, and with a baseline the findings new and gone, else every FAIL."""
    lines = [COMMENT_MARKER.format(key=cell(key)), f"### Conformance: {cell(key)}", "", verdict_line(report), "",
             _about(report), ""]
    if isinstance(report.get("baseline"), Mapping):
        lines += _diff(report)
    else:
        lines += _failure_table(failures(report))
    return "\n".join(lines) + "\n"


def _about(report: Mapping[str, Any]) -> str:
    tool = report.get("tool") if isinstance(report.get("tool"), Mapping) else {}
    return (f"Target {cell(report.get('target'))} · API {cell(report.get('spec_version'))} · profile "
            f"{cell(report.get('profile'))} · seed {cell(report.get('seed'))} · {cell(report.get('requests'))} "
            f"requests · {cell(tool.get('name'))} {cell(tool.get('version'))}")


def _counts(report: Mapping[str, Any]) -> str:
    summary = report.get("summary") if isinstance(report.get("summary"), Mapping) else {}
    checks = summary.get("checks") if isinstance(summary.get("checks"), Mapping) else {}
    found = summary.get("findings") if isinstance(summary.get("findings"), Mapping) else {}
    shown = lambda tally: ", ".join(f"{cell(k)} {cell(v)}" for k, v in tally.items() if v) or "none"  # noqa: E731
    return f"Checks: {shown(checks)}. Findings: {shown(found)}."


def _failure_table(rows: list[Mapping[str, Any]], heading: str = "Failures") -> list[str]:
    if not rows:
        return [f"No {heading.lower()}."]
    lines = [f"#### {heading} ({len(rows)})", "", "| Check | Method | Title | Clauses |", "|---|---|---|---|"]
    for finding in rows[:ROW_LIMIT]:
        mark = " (baselined)" if finding.get("baselined") else ""
        clauses = ", ".join(map(str, _list(finding.get("clauses"))))
        lines.append(f"| `{cell(finding.get('check_id'))}` | {cell(finding.get('method'))} | "
                     f"{cell(finding.get('title'))}{mark} | {cell(clauses)} |")
    if len(rows) > ROW_LIMIT:
        lines.append(f"\n…and {len(rows) - ROW_LIMIT} more: see report.json in the job's artifact.")
    return lines


def _diff(report: Mapping[str, Any]) -> list[str]:
    """New: FAIL findings the baseline does not know. Gone: baseline entries whose check ran and matched nothing."""
    new = [finding for finding in failures(report) if not finding.get("baselined")]
    known = sum(1 for finding in failures(report) if finding.get("baselined"))
    gone = [entry for entry in _list(report["baseline"].get("stale")) if isinstance(entry, Mapping)]
    lines = [*_failure_table(new, "New failures"), "", f"Known (baselined) failures still present: {known}.", ""]
    if not gone:
        return [*lines, "No baseline entry is gone."]
    lines += [f"#### Gone from the baseline ({len(gone)})", "", "| Check | Method | Title |", "|---|---|---|"]
    lines += [f"| `{cell(e.get('check'))}` | {cell(e.get('method'))} | {cell(e.get('title'))} |" for e in gone]
    return lines


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []
