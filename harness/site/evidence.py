"""A finding as evidence a vendor can act on: what was asked, what came back, where, which rule, how to
ask again (the curl line, keys already redacted by the run), and the facts of a proof or of an on-chain
judgement the check recorded (`detail`)."""

from __future__ import annotations

from typing import Any

from csi_conformance.harness.core.model import Finding
from csi_conformance.harness.report.markup import anchor
from csi_conformance.harness.report.values import pretty_json_head
from csi_conformance.harness.site.pages import escape, status_class
from csi_conformance.harness.site.readings import clause_text

__all__ = ["finding_html"]

SHOWN = 6_000
"""Characters of a JSON value shown per finding; the report.json holds all of it."""


def _json(value: Any) -> str:
    text, cut = pretty_json_head(value, SHOWN)
    return f"<pre>{escape(text)}{' …(cut: the report.json holds the rest)' if cut else ''}</pre>"


def finding_html(finding: Finding, contract: str, index: int, issues: list[str]) -> str:
    """One finding with its evidence; `index` keeps its id unique on the page."""
    clauses = "".join(f"<li>{escape(c)}: {escape(clause_text(contract, c))}</li>" for c in finding.clauses)
    facts = [("check", finding.check_id), ("method", finding.method or "—"), ("JSON path", finding.path or "—"),
             ("basis", finding.basis.label), ("occurrences", str(finding.occurrences))]
    if finding.http_status is not None:
        facts.append(("HTTP status", str(finding.http_status)))
    links = "".join(f'<li><a href="{escape(url)}">{escape(url)}</a></li>' for url in issues)
    parts = [f'<div class="finding" id="{anchor("finding", index, finding.check_id)}">',
             f'<h4><span class="st {status_class(finding.status.value)}">{escape(finding.status.value)}</span> '
             f"{escape(finding.title)}</h4><dl>",
             *(f"<dt>{escape(name)}</dt><dd>{escape(value)}</dd>" for name, value in facts), "</dl>",
             f"<p>Clauses:</p><ul>{clauses or '<li>none</li>'}</ul>",
             f"{f'<p>Triaged:</p><ul>{links}</ul>' if links else ''}",
             "<p>Expected:</p>", _json(finding.expected), "<p>Received:</p>", _json(finding.received)]
    if finding.detail:
        parts += ["<p>Evidence (proof, on-chain judgement and other facts the check recorded):</p>",
                  _json(finding.detail)]
    parts += ["<p>Request:</p>", _json(finding.request), "<p>Response:</p>", _json(finding.response)]
    if finding.reference_response is not None:
        parts += ["<p>The reference answered:</p>", _json(finding.reference_response)]
    if finding.curl:
        parts += ["<p>Reproduce:</p>", f"<pre>{escape(finding.curl)}</pre>"]
    return "".join(parts) + "</div>"
