"""`report.html`: the implementation report a vendor or spec author reads, as one self-contained page.

Inline CSS, no script, no external resource: it opens from a CI artifact or an e-mail. Every
string from the run or the contract goes through `_e` (`html.escape`), since answers, messages
and even the target URL come from a server that may be hostile.
"""

from __future__ import annotations

import html
from pathlib import Path

from harness.core.model import Finding, Observation, RunResult, Status
from harness.report.json_report import gate_summary, tool_version
from harness.report.matrix import matrix_columns, matrix_rows, method_family_matrix
from harness.report.values import clean, pretty_json_head
from harness.report.write import write_atomic
from schema import Contract

__all__ = ["HTML_NAME", "render_html", "write_html"]

HTML_NAME = "report.html"
NOTHING = "—"
SHOWN_JSON = 20_000
"""Characters of a request or response shown per finding; report.json always holds all of it."""
CONDITIONAL_FAMILIES = ("differential",)
"""Families that apply only with a reference (`--scenario`): their matrix column is left out when none
of their checks examined anything, rather than filling it with SKIP."""

_CSS = """
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,sans-serif;margin:2em auto;max-width:80em;padding:0 1em;color:#222}
h1{font-size:1.6em}h2{margin-top:2em;border-bottom:1px solid #ccc}h3{margin-bottom:.3em}
table{border-collapse:collapse;margin:.5em 0}th,td{border:1px solid #ccc;padding:.25em .6em;text-align:left;
vertical-align:top}th{background:#f3f3f3}td.n{text-align:right}
pre{background:#f7f7f7;border:1px solid #ddd;padding:.6em;overflow-x:auto;white-space:pre-wrap;word-break:break-all}
.s{font-weight:600;padding:0 .4em;border-radius:3px;white-space:nowrap}
.PASS{background:#d9f2d9}.SKIP{background:#eee;color:#555}.INFO{background:#dde8f7}
.AMBIGUOUS{background:#efe0f7}.WARN{background:#fbe9c4}.FAIL{background:#f6cccc}
.none{color:#aaa;text-align:center}.finding{border-left:4px solid #ccc;padding-left:1em;margin:1.5em 0}
.finding.FAIL{border-color:#c33;background:none}.finding.WARN{border-color:#d90;background:none}
.finding.AMBIGUOUS{border-color:#93c;background:none}.finding.INFO{border-color:#36c;background:none}
.verdict{font-size:1.2em;font-weight:700}.passed{color:#161}.failed{color:#a11}
.sides{display:grid;grid-template-columns:1fr 1fr;gap:1em}.sides pre{margin-top:0}
.known{font-weight:600;color:#555;border:1px solid #999;border-radius:3px;padding:0 .4em}
"""


def write_html(result: RunResult, directory: Path, contract: Contract | None = None, *,
               gate: Status = Status.FAIL) -> Path:
    """Write `report.html` into `directory` atomically and return its path."""
    path = Path(directory) / HTML_NAME
    write_atomic(path, render_html(result, contract, gate=gate))
    return path


def render_html(result: RunResult, contract: Contract | None = None, *, gate: Status = Status.FAIL) -> str:
    """The whole page as text."""
    contract = contract or Contract.default()
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>Conformance report: {_e(result.target)}</title>",
        f"<style>{_CSS}</style></head><body>",
        _header(result, gate),
        _summary(result),
        _matrix(result, contract),
        _observations(result.observations),
        _baseline(result),
        _checks(result),
        _findings(result.findings, contract),
        _discovered(result.discovered),
        f"<footer><p>Written by csi-conformance {_e(tool_version())}.</p></footer>",
        "</body></html>",
    ]
    return "\n".join(parts) + "\n"


def _e(value: object) -> str:
    return html.escape(clean(str(value)), quote=True)


def _badge(status: Status) -> str:
    return f'<span class="s {status.value}">{status.value}</span>'


def _table(head: list[str], rows: list[list[str]]) -> str:
    """A table from cells that are already HTML (escaped by the caller)."""
    header = "".join(f"<th>{cell}</th>" for cell in head)
    body = "".join("<tr>" + "".join(_cell(cell) for cell in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{header}</tr></thead><tbody>{body}</tbody></table>"


def _cell(cell: str) -> str:
    return f"<td>{cell}</td>" if not cell.startswith("<td") else cell


def _header(result: RunResult, gate: Status) -> str:
    verdict = gate_summary(result, gate)
    word = "passed" if verdict["passed"] else "failed"
    detail = f"{verdict['blocking']} finding(s) at or above {gate.value}"
    rows = [["Target", _e(result.target)], ["Profile", _e(result.profile)], ["Seed", _e(result.seed)],
            ["Spec version", _e(result.spec_version)], ["Started", _e(result.started)],
            ["Duration", _e(f"{result.duration:.1f} s")], ["Requests", _e(result.requests)]]
    if result.scenario is not None:
        rows.append(["Compared with", _e(f"a reference server over scenario {result.scenario}")])
    if result.interrupted:
        rows.append(["Interrupted", "yes: checks not run are SKIP"])
    notes = "".join(f"<li>{_e(note)}</li>" for note in result.notes)
    return (f"<header><h1>Compressed-State Indexer API {_e(result.spec_version)}: conformance report</h1>"
            + "<table>" + "".join(f"<tr><th>{k}</th><td>{v}</td></tr>" for k, v in rows) + "</table>"
            + f'<p class="verdict {word}">Gate ({_e(gate.value)}): {word}, {_e(detail)}</p>'
            + (f"<ul>{notes}</ul>" if notes else "") + "</header>")


def _summary(result: RunResult) -> str:
    checks = result.counts()
    findings = {status.value: 0 for status in Status}
    for finding in result.findings:
        findings[finding.status.value] += 1
    head = ["", *(_badge(status) for status in Status), "Total"]
    rows = [["Checks", *(_num(checks[s.value]) for s in Status), _num(sum(checks.values()))],
            ["Findings", *(_num(findings[s.value]) for s in Status), _num(sum(findings.values()))]]
    return "<section><h2>Summary</h2>" + _table(head, rows) + "</section>"


def _num(value: int) -> str:
    return f'<td class="n">{value}</td>'


def _matrix(result: RunResult, contract: Contract) -> str:
    matrix = method_family_matrix(result)
    examined = {check.family for check in result.checks if check.status is not Status.SKIP}
    columns = [f for f in matrix_columns(matrix) if f not in CONDITIONAL_FAMILIES or f in examined]
    rows = []
    for method in matrix_rows(matrix, list(contract.methods)):
        cells = [matrix.get((method, family)) for family in columns]
        rows.append([f"<code>{_e(method)}</code>",
                     *(_badge(s) if s else f'<td class="none">{NOTHING}</td>' for s in cells)])
    intro = ("<p>Worst status of the checks and findings for each method in each family; "
             f"{NOTHING} where no check applies.</p>")
    return "<section><h2>Methods × families</h2>" + intro + _table(["Method", *map(_e, columns)], rows) + "</section>"


def _observations(observations: list[Observation]) -> str:
    if not observations:
        return "<section><h2>Ambiguities</h2><p>No answer touched a point the spec leaves open.</p></section>"
    rows = []
    for obs in observations:
        followed = ", ".join(obs.readings) or "none consistently"
        counts = ", ".join(f"{name}: {count}/{obs.answers}" for name, count in obs.counts.items())
        same = obs.observed_practice in obs.readings
        rows.append([f"<code>{_e(obs.clause)}</code>", _e(obs.question), _e(obs.observed_practice),
                     f"<strong>{_e(followed)}</strong>" + ("" if same else " (differs from observed practice)"),
                     _e(counts)])
    head = ["Clause", "Question", "Observed practice", "Readings this target followed", "Answers per reading"]
    return "<section><h2>Ambiguities</h2>" + _table(head, rows) + "</section>"


def _baseline(result: RunResult) -> str:
    """The baseline's effect: how many findings it excused, and the entries that matched nothing."""
    if result.baseline is None:
        return ""
    known = sum(1 for finding in result.findings if finding.baselined)
    intro = (f"<p>{len(result.baseline)} known finding(s) listed; {known} finding(s) of this run matched and are "
             "not counted by the gate.</p>")
    if not result.stale_baseline:
        return "<section><h2>Baseline</h2>" + intro + "<p>No stale entry.</p></section>"
    rows = [[f"<code>{_e(entry.check)}</code>", _e(entry.method or "any"), _e(entry.title or "any")]
            for entry in result.stale_baseline]
    return ("<section><h2>Baseline</h2>" + intro + "<p>Stale entries: their check ran and matched no finding "
            "(fixed, or the baseline is out of date).</p>" + _table(["Check", "Method", "Title"], rows) + "</section>")


def _checks(result: RunResult) -> str:
    rows = []
    for check in result.checks:
        note = check.skip_reason or ("not run" if check.status is Status.SKIP else "")
        rows.append([f"<code>{_e(check.check_id)}</code>", _e(check.family), _badge(check.status),
                     _e(" ".join(check.clauses)), _num(check.runs), _e(check.description), _e(note)])
    head = ["Check", "Family", "Status", "Clauses", "Runs", "What it verifies", "Skip reason"]
    return "<section><h2>Checks</h2>" + _table(head, rows) + "</section>"


def _findings(findings: list[Finding], contract: Contract) -> str:
    if not findings:
        return "<section><h2>Findings</h2><p>None.</p></section>"
    ordered = sorted(findings, key=lambda f: (-f.status.rank, f.check_id))
    return "<section><h2>Findings</h2>" + "".join(_finding(f, contract) for f in ordered) + "</section>"


def _finding(finding: Finding, contract: Contract) -> str:
    clauses = "".join(f"<li><code>{_e(c)}</code> {_e(_clause_text(contract, c))}</li>" for c in finding.clauses)
    facts = [f"<code>{_e(finding.check_id)}</code>", f"method <code>{_e(finding.method or '-')}</code>",
             f"basis {_e(finding.basis.value)}"]
    if finding.http_status is not None:
        facts.append(f"HTTP {_e(finding.http_status)}")
    if finding.seed is not None:
        facts.append(f"seed {_e(finding.seed)}")
    known = ' <span class="known">baselined: known, not counted by the gate</span>' if finding.baselined else ""
    parts = [f'<article class="finding {finding.status.value}">',
             f"<h3>{_badge(finding.status)} {_e(finding.title)}{known}</h3>",
             f"<p>{' · '.join(facts)}</p>", f"<ul>{clauses}</ul>", f"<pre>{_message(finding.message)}</pre>"]
    if finding.request is not None:
        parts.append(f"<p>Request</p><pre>{_json_block(finding.request)}</pre>")
    if finding.reference_response is not None:
        parts.append('<div class="sides"><div><p>Target answer</p>'
                     f"<pre>{_json_block(finding.response)}</pre></div><div><p>Reference answer</p>"
                     f"<pre>{_json_block(finding.reference_response)}</pre></div></div>")
    elif finding.response is not None:
        parts.append(f"<p>Response</p><pre>{_json_block(finding.response)}</pre>")
    if finding.curl:
        parts.append(f"<p>Reproduce</p><pre>{_e(finding.curl)}</pre>")
    return "".join(parts) + "</article>"


def _json_block(value: object) -> str:
    text, cut = pretty_json_head(value, SHOWN_JSON)
    return _e(text) + (f"\n<em>… cut at {SHOWN_JSON} characters: report.json holds all of it</em>" if cut else "")


def _message(message: str) -> str:
    """The Expected/Received message, escaped, with its labels in bold."""
    escaped = _e(message)
    for label in ("Expected:", "Received:"):
        escaped = escaped.replace(label, f"<strong>{label}</strong>")
    return escaped


def _clause_text(contract: Contract, clause_id: str) -> str:
    clause = contract.clauses.get(clause_id)
    return f"(§{clause.section}) {clause.text}" if clause else "(not a clause of this spec version)"


def _discovered(discovered: dict[str, list[str]]) -> str:
    if not discovered:
        return "<section><h2>Discovered keys</h2><p>None.</p></section>"
    rows = [[f"<code>{_e(kind)}</code>", _num(len(keys))] for kind, keys in sorted(discovered.items())]
    return "<section><h2>Discovered keys</h2>" + _table(["Kind", "Count"], rows) + "</section>"
