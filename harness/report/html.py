"""`report.html`: the implementation report a vendor or spec author reads, as one self-contained page.

It reads in the order a vendor acts: the verdict (a banner with the counts, and the checks that examined
nothing with why, linked to their rows: `html_unexamined`), then the findings
grouped by check and method, each with the member that is wrong, both values as JSON, the
clause text and a curl line; then the run's facts, the method × family matrix, the ambiguities
and the catalogue of checks. Inline CSS, no script, no external resource (links are anchors
within the page): it opens from a CI artifact or an e-mail. Every string from the run or the
contract goes through `_e` (`html.escape`), since answers, messages and even the target URL
come from a server that may be hostile.
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path

from csi_conformance.groundwork import jsonio
from csi_conformance.harness.core.model import KINDS, CheckResult, Finding, Observation, RunResult, Status
from csi_conformance.harness.report.asked_again import asked_again_line
from csi_conformance.harness.report.findings import (
    KIT_ERROR_NOTE,
    GroupedFindings,
    example_line,
    group_findings,
    reproduce,
    shown,
    skip_reason,
    verdict_counts,
    verdict_reasons,
)
from csi_conformance.harness.report.html_unexamined import CSS as UNEXAMINED_CSS
from csi_conformance.harness.report.html_unexamined import batched_fact, check_anchor, unexamined_banner
from csi_conformance.harness.report.json_report import tool_version
from csi_conformance.harness.report.markup import anchor as _anchor
from csi_conformance.harness.report.markup import escape as _e
from csi_conformance.harness.report.matrix import matrix_columns, matrix_rows, method_family_matrix
from csi_conformance.harness.report.values import jsonable, pretty_json_head
from csi_conformance.harness.report.write import write_atomic
from csi_conformance.schema import Contract

__all__ = ["BANNER_COLOURS", "HTML_NAME", "render_html", "write_html"]

HTML_NAME = "report.html"
NOTHING = "—"
SHOWN_JSON = 20_000
"""Characters of a request or response shown per finding; report.json always holds all of it."""
SHOWN_REQUEST = 4_000
CONDITIONAL_FAMILIES = ("differential", "onchain")
"""Families that apply only with a reference (`--scenario`) or discovered data: their matrix column is left
out when none of their checks examined anything, rather than filling it with SKIP."""
BANNER_COLOURS = {"conformant": "#1a7f37", "not conformant": "#b3261e", "inconclusive": "#9a5b00",
                  "not run": "#9a5b00"}
"""Background of the verdict banner (white text); the browser test reads these pixels back."""

_CSS = """
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,sans-serif;margin:0 auto 2em;max-width:80em;padding:0 1em;
color:#222}
h1{font-size:1.4em;margin:.8em 0 .4em}h2{margin-top:2em;border-bottom:1px solid #ccc}h3{margin:1.2em 0 .3em}
h4{margin:.8em 0 .2em;font-weight:600}
table{border-collapse:collapse;margin:.5em 0}th,td{border:1px solid #ccc;padding:.25em .6em;text-align:left;
vertical-align:top}th{background:#f3f3f3}td.n{text-align:right}
pre{background:#f7f7f7;border:1px solid #ddd;padding:.5em;overflow-x:auto;white-space:pre-wrap;word-break:break-all;
margin:.2em 0 .6em}
.s{font-weight:600;padding:0 .4em;border-radius:3px;white-space:nowrap}
.PASS{background:#d9f2d9}.SKIP{background:#eee;color:#555}.N\\/A{background:#f6f6f6;color:#777}.INFO{background:#dde8f7}.UNVERIFIED{background:#d8f0f0}
.AMBIGUOUS{background:#efe0f7}.WARN{background:#fbe9c4}.FAIL{background:#f6cccc}.ERROR{background:#e8d0f0}
.none{color:#aaa;text-align:center}
.banner{color:#fff;padding:1em 1.4em;border-radius:6px;margin:0 0 1em}
.banner .word{font-size:2em;font-weight:700;margin:0}.banner p{margin:.2em 0}.banner ul{margin:.4em 0 0}
.toc li{margin:.1em 0}a{color:#0b57d0}
.group{border-top:2px solid #ddd;margin-top:1.2em}
.finding{border-left:5px solid #ccc;padding:.2em 0 .2em 1em;margin:.8em 0 1.4em}
.finding.FAIL{border-color:#c33;background:none}.finding.WARN{border-color:#d90;background:none}
.finding.AMBIGUOUS{border-color:#93c;background:none}.finding.INFO{border-color:#36c;background:none}
.finding.ERROR{border-color:#80c;background:none}.finding.UNVERIFIED{border-color:#399;background:none}
.facts{margin:.2em 0}.facts span{margin-right:1.2em}.count{font-weight:600;color:#a11}
.sides{display:grid;grid-template-columns:1fr 1fr;gap:1em}.sides pre{margin-top:0}.sides p{margin:.2em 0}
.known{font-weight:600;color:#555;border:1px solid #999;border-radius:3px;padding:0 .4em}
.kit{font-weight:600;color:#80c}.label{font-weight:600;margin:.4em 0 0}
"""


def write_html(result: RunResult, directory: Path, contract: Contract | None = None, *,
               gate: Status = Status.FAIL) -> Path:
    """Write `report.html` into `directory` atomically and return its path."""
    path = Path(directory) / HTML_NAME
    write_atomic(path, render_html(result, contract, gate=gate))
    return path


def render_html(result: RunResult, contract: Contract | None = None, *, gate: Status = Status.FAIL) -> str:
    """The whole page as text: verdict, findings, then the facts, matrix and catalogue."""
    contract = contract or Contract.default()
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>Conformance report: {_e(result.target)}</title>",
        f"<style>{_CSS}{UNEXAMINED_CSS}</style></head><body>",
        f"<h1>Compressed-State Indexer API {_e(result.spec_version)}: conformance of {_e(result.target)}</h1>",
        _banner(result, gate),
        _findings(result, contract),
        _facts(result),
        _summary(result),
        _matrix(result, contract),
        _observations(result.observations, contract),
        _baseline(result),
        _checks(result, contract.methods),
        _discovered(result.discovered),
        f"<footer><p>Written by csi-conformance {_e(tool_version())}.</p></footer>",
        "</body></html>",
    ]
    return "\n".join(parts) + "\n"


def _badge(status: Status) -> str:
    return f'<span class="s {status.value}">{status.value}</span>'


def _table(head: list[str], rows: list[list[str]], ids: list[str] | None = None) -> str:
    """A table from cells that are already HTML (escaped by the caller); `ids`, one per row, to link to rows."""
    header = "".join(f"<th>{cell}</th>" for cell in head)
    starts = [f'<tr id="{row_id}">' for row_id in ids] if ids is not None else ["<tr>"] * len(rows)
    body = "".join(start + "".join(_cell(cell) for cell in row) + "</tr>"
                   for start, row in zip(starts, rows, strict=True))
    return f"<table><thead><tr>{header}</tr></thead><tbody>{body}</tbody></table>"


def _cell(cell: str) -> str:
    return f"<td>{cell}</td>" if not cell.startswith("<td") else cell


def _num(value: int) -> str:
    return f'<td class="n">{value}</td>'


def _banner(result: RunResult, gate: Status) -> str:
    """The verdict first: conformant, not conformant or inconclusive, with the counts and the reasons."""
    verdict = result.verdict(gate)
    items = "".join(f"<li>{_e(reason)}</li>" for reason in verdict_reasons(result, gate))
    return (f'<div class="banner" id="verdict" style="background:{BANNER_COLOURS[verdict]}">'
            f'<p class="word">{_e(verdict.capitalize())}</p>'
            f"<p>{_e(verdict_counts(result, gate))} · threshold {_e(gate.value)} (--fail-on) · "
            f"profile {_e(result.profile)}</p>"
            + (f"<ul>{items}</ul>" if items else "") + unexamined_banner(result) + "</div>")


def _findings(result: RunResult, contract: Contract) -> str:
    groups = group_findings(result.findings)
    if not groups:
        return '<section id="findings"><h2>Findings</h2><p>None.</p></section>'
    toc = "".join(f'<li>{_badge(group.status)} <a href="#{_anchor("c", group.check_id)}">{_e(group.check_id)}</a>: '
                  + ", ".join(f'<a href="#{_anchor("c", group.check_id, method or "any")}">{_e(method or "no method")}'
                              f"</a> ({_occurrences(findings)})" for method, findings in group.by_method) + "</li>"
                  for group in groups)
    body = "".join(_group(group, result.target, contract) for group in groups)
    return (f'<section id="findings"><h2>Findings ({len(result.findings)})</h2>'
            f'<ul class="toc">{toc}</ul>{body}</section>')


def _occurrences(findings: tuple[Finding, ...]) -> str:
    total = sum(f.occurrences for f in findings)
    return f"{len(findings)} finding{'s' if len(findings) != 1 else ''}" + (
        f", {total} answers" if total != len(findings) else "")


def _group(group: GroupedFindings, target: str, contract: Contract) -> str:
    parts = [f'<section class="group" id="{_anchor("c", group.check_id)}">',
             f"<h3>{_badge(group.status)} <code>{_e(group.check_id)}</code></h3>"]
    for method, findings in group.by_method:
        parts.append(f'<h4 id="{_anchor("c", group.check_id, method or "any")}">'
                     + (f"method <code>{_e(method)}</code>" if method else "not tied to one method") + "</h4>")
        parts += [_finding(finding, target, contract) for finding in findings]
    return "".join(parts) + "</section>"


def _finding(finding: Finding, target: str, contract: Contract) -> str:
    view = shown(finding)
    count = f' <span class="count">×{finding.occurrences}</span>' if finding.occurrences > 1 else ""
    known = ' <span class="known">baselined: known, not counted by the gate</span>' if finding.baselined else ""
    kit = f' <span class="kit">{_e(KIT_ERROR_NOTE)}</span>' if finding.status is Status.ERROR else ""
    facts = [f"Member: <code>{_e(view.path)}</code>" if view.path else "Member: not named by the check",
             f"Basis: {_e(finding.basis.label)}"]
    facts += [f"HTTP {_e(finding.http_status)}"] if finding.http_status is not None else []
    facts += [f"seed {_e(finding.seed)}"] if finding.seed is not None else []
    parts = [f'<article class="finding {finding.status.value}">',
             f"<p>{_badge(finding.status)} <strong>{_e(finding.title)}</strong>{count}{known}{kit}</p>",
             '<p class="facts">' + "".join(f"<span>{fact}</span>" for fact in facts) + "</p>",
             '<div class="sides"><div><p class="label">Expected</p>'
             f"<pre>{_value(finding, finding.expected)}</pre></div>"
             '<div><p class="label">Received</p>'
             f"<pre>{_value(finding, finding.received)}</pre></div></div>"]
    if view.detail:
        parts.append(f"<pre>{_e(chr(10).join(view.detail))}</pre>")
    parts.append("<ul>" + "".join(f"<li><code>{_e(c)}</code> {_e(_clause_text(contract, c))}</li>"
                                  for c in finding.clauses) + "</ul>")
    parts.append(_reproduce(finding, target))
    parts.append(_exchange(finding))
    parts.append(_examples(finding))
    return "".join(parts) + "</article>"


def _reproduce(finding: Finding, target: str) -> str:
    line = reproduce(finding, target)
    if line is None:
        return f'<p class="label">Reproduce</p><p>Not tied to one request; target {_e(target)}.</p>'
    request = ""
    if finding.request is not None:
        request = f'<p class="label">Request</p><pre>{_request(finding.request)}</pre>'
    return f'{request}<p class="label">Reproduce (target {_e(target)})</p><pre>{_e(line)}</pre>'


def _exchange(finding: Finding) -> str:
    if finding.reference_response is not None:
        return ("<details><summary>Target and reference answers</summary>"
                '<div class="sides"><div><p class="label">Target answer</p>'
                f"<pre>{_json_block(finding.response)}</pre></div><div><p class=\"label\">Reference answer</p>"
                f"<pre>{_json_block(finding.reference_response)}</pre></div></div></details>")
    if finding.response is not None:
        return f"<details><summary>Answer</summary><pre>{_json_block(finding.response)}</pre></details>"
    return ""


def _examples(finding: Finding) -> str:
    if not finding.examples:
        return ""
    items = "".join(f"<li><pre>{_e(example_line(finding, example))}</pre>"
                    + (f"<pre>{_e(example['curl'])}</pre>" if example.get("curl") else "") + "</li>"
                    for example in finding.examples)
    return (f"<details><summary>{len(finding.examples)} other example(s) of the {finding.occurrences} answers"
            f"</summary><ul>{items}</ul></details>")


def _value(finding: Finding, value: object) -> str:
    """One of a finding's two values: its words as they are, else indented JSON, cut like an answer."""
    if isinstance(value, str) and not KINDS[finding.kind].exact:
        return _e(value)
    return _json_block(value)


def _request(request: object) -> str:
    """A short request on one line, as it is sent; a long one indented and cut like an answer."""
    try:
        line = jsonio.dumps(jsonable(request))
    except (TypeError, ValueError):
        line = ""
    return _e(line) if line and len(line) <= 200 else _json_block(request, SHOWN_REQUEST)


def _json_block(value: object, limit: int = SHOWN_JSON) -> str:
    text, cut = pretty_json_head(value, limit)
    return _e(text) + (f"\n<em>… cut at {limit} characters: report.json holds all of it</em>" if cut else "")


def _clause_text(contract: Contract, clause_id: str) -> str:
    clause = contract.clauses.get(clause_id)
    return f"(§{clause.section}) {clause.text}" if clause else "(not a clause of this spec version)"


def _facts(result: RunResult) -> str:
    rows = [["Target", _e(result.target)], ["Profile", _e(result.profile)], ["Seed", _e(result.seed)],
            ["Spec version", _e(result.spec_version)], ["Started", _e(result.started)],
            ["Duration", _e(f"{result.duration:.1f} s")], ["Requests", _e(result.requests)]]
    if result.throttled:
        rows.append(["Rate limited", _e(f"{result.throttled} answers were HTTP 429; a lower --rate spares them")])
    if result.scenario is not None:
        rows.append(["Compared with", _e(f"a reference server over scenario {result.scenario}")])
    if result.shard is not None:
        rows.append(["Shard", _e(result.shard)])
    batched = batched_fact(result)
    if batched is not None:
        rows.append(["Batched trees", batched])
    asked = asked_again_line(result)
    if asked is not None:
        rows.append(["Asked again", _e(asked)])
    if result.interrupted:
        rows.append(["Interrupted", "yes: checks not run are SKIP"])
    notes = "".join(f"<li>{_e(note)}</li>" for note in result.notes)
    return ('<section id="run"><h2>The run</h2><table>'
            + "".join(f"<tr><th>{k}</th><td>{v}</td></tr>" for k, v in rows) + "</table>"
            + (f"<ul>{notes}</ul>" if notes else "") + "</section>")


def _summary(result: RunResult) -> str:
    checks = result.counts()
    findings = {status.value: 0 for status in Status}
    for finding in result.findings:
        findings[finding.status.value] += 1
    head = ["", *(_badge(status) for status in Status), "Total"]
    rows = [["Checks", *(_num(checks[s.value]) for s in Status), _num(sum(checks.values()))],
            ["Findings", *(_num(findings[s.value]) for s in Status), _num(sum(findings.values()))]]
    return "<section><h2>Summary</h2>" + _table(head, rows) + "</section>"


def _matrix(result: RunResult, contract: Contract) -> str:
    matrix = method_family_matrix(result, contract.methods)
    examined = {check.family for check in result.checks if check.examined_total or check.findings}
    columns = [f for f in matrix_columns(matrix) if f not in CONDITIONAL_FAMILIES or f in examined]
    rows = []
    for method in matrix_rows(matrix, list(contract.methods)):
        cells = [matrix.get((method, family)) for family in columns]
        rows.append([f"<code>{_e(method)}</code>",
                     *(_badge(s) if s else f'<td class="none">{NOTHING}</td>' for s in cells)])
    intro = ("<p>For each method in each family: the worst status of its findings (a finding the baseline "
             "excuses is not counted); else PASS where a check examined something on the method, SKIP where "
             "checks whose rule applies to the method examined nothing there, N/A where they cannot apply to this "
             f"run, {NOTHING} where no check of the family applies to the method (its answers hold nothing the "
             "family judges, or the target's reading of an open point leaves nothing to judge) or none ran.</p>")
    return "<section><h2>Methods × families</h2>" + intro + _table(["Method", *map(_e, columns)], rows) + "</section>"


def _observations(observations: list[Observation], contract: Contract) -> str:
    """Every point the spec leaves open: the readings this target followed, or why the run cannot tell."""
    seen = {obs.ambiguity: obs for obs in observations}
    rows = []
    for amb in contract.ambiguities.values():
        obs = seen.get(amb.id)
        point = f"<code>{_e(amb.id)}</code><br><code>{_e(amb.clause)}</code>"
        if obs is None or not obs.answers:
            why = obs.reason if obs is not None and obs.reason else "not exercised by this run: no answer recorded it"
            rows.append([point, _e(amb.question), _e(amb.observed), f"<em>{_e(why)}</em>", ""])
            continue
        followed = ", ".join(obs.readings) or "none consistently"
        counts = ", ".join(f"{name}: {count}/{obs.answers}" for name, count in obs.counts.items())
        same = obs.observed_practice in obs.readings
        rows.append([point, _e(amb.question), _e(obs.observed_practice),
                     f"<strong>{_e(followed)}</strong>" + ("" if same else " (differs from observed practice)"),
                     _e(counts)])
    told = sum(1 for obs in observations if obs.answers)
    intro = (f"<p>{len(contract.ambiguities)} points the spec leaves open or states twice; this run's answers "
             f"told the reading of {told}.</p>")
    head = ["Point", "Question", "Observed practice", "Readings this target followed", "Answers per reading"]
    return "<section><h2>Ambiguities</h2>" + intro + _table(head, rows) + "</section>"


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


def _checks(result: RunResult, methods: Collection[str]) -> str:
    rows = [[f"<code>{_e(check.check_id)}</code>", _e(check.family), _badge(check.status), _examined(check, methods),
             _e(" ".join(check.clauses)), _e(check.description), _e(_note(check))] for check in result.checks]
    head = ["Check", "Family", "Status", "Examined", "Clauses", "What it verifies", "Note"]
    ids = [check_anchor(check.check_id) for check in result.checks]
    return '<section id="checks"><h2>Checks</h2>' + _table(head, rows, ids) + "</section>"


def _examined(check: CheckResult, methods: Collection[str]) -> str:
    """`answers 120, accounts 30 · 12/19 methods`: what the check judged, and on how many of the contract's
    methods it ran on (a probe with an unknown method name is no method of the API)."""
    judged = ", ".join(f"{kind} {count}" for kind, count in sorted(check.examined.items())) or "nothing"
    ran = check.methods & set(methods)
    if ran:
        judged += f" · {len(check.examined_methods & ran)}/{len(ran)} methods"
    return _e(judged)


def _note(check: CheckResult) -> str:
    if check.status is Status.ERROR:
        return KIT_ERROR_NOTE
    if check.not_reached:
        return "partial: did not reach " + "; ".join(check.not_reached)
    return skip_reason(check) or check.incomplete or ""


def _discovered(discovered: dict[str, list[str]]) -> str:
    if not discovered:
        return "<section><h2>Discovered keys</h2><p>None.</p></section>"
    rows = [[f"<code>{_e(kind)}</code>", _num(len(keys))] for kind, keys in sorted(discovered.items())]
    return "<section><h2>Discovered keys</h2>" + _table(["Kind", "Count"], rows) + "</section>"
