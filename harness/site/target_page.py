"""targets/NAME.html: one target, in each group it appears in: its runs by version, the transitions of its
checks, its badge with the snippets to copy, and every finding of its latest run with the evidence."""

from __future__ import annotations

from csi_conformance.harness.site.align import Group
from csi_conformance.harness.site.cells import summary
from csi_conformance.harness.site.evidence import finding_html
from csi_conformance.harness.site.history import history
from csi_conformance.harness.site.pages import Site, escape, page, status_class
from csi_conformance.harness.site.triage import Triage, issues_for

__all__ = ["target_page"]

HOST = "https://YOUR-HOST/csi-site"
"""Where the snippets say the site is published: the reader replaces it with their own address."""


def target_page(site: Site, name: str, groups: list[Group], triage: list[Triage]) -> str:
    sections = [_group(site, name, group, triage) for group in groups if name in group.targets()]
    return page(f"Target {name}", "".join(sections), root="../")


def _group(site: Site, name: str, group: Group, triage: list[Triage]) -> str:
    runs = group.history(name)
    latest = runs[-1].result
    findings = "".join(finding_html(f, group.contract, i, issues_for(triage, name, [f.check_id], f.clauses))
                       for i, f in enumerate(latest.findings)) or "<p>No finding.</p>"
    return (f"<section><h2>{escape(group.title)}</h2>{_runs(runs)}{_badge(site, name, group, latest.verdict())}"
            f"<h3>History: only the checks whose status changed</h3>{_history(runs)}"
            f"<h3>Findings of the latest run ({escape(latest.target_version or 'no version')})</h3>{findings}"
            "</section>")


def _runs(runs: list) -> str:
    rows = "".join(f"<tr><th scope=\"row\">{escape(run.version or '(no version)')}</th>"
                   f"<td>{escape(summary(run.result).verdict)}</td><td>{escape(run.result.target)}</td>"
                   f"<td>{len(summary(run.result).earned)}</td></tr>" for run in runs)
    return ("<table><caption>Runs, by declared version</caption><thead><tr><th scope=\"col\">version</th>"
            "<th scope=\"col\">verdict</th><th scope=\"col\">URL</th><th scope=\"col\">clauses earned</th></tr>"
            f"</thead><tbody>{rows}</tbody></table>")


def _badge(site: Site, name: str, group: Group, verdict: str) -> str:
    svg, endpoint = site.badge(name, group.contract, "svg"), site.badge(name, group.contract, "json")
    markdown = f"![csi {group.contract}]({HOST}/{svg})"
    shields = f"![csi {group.contract}](https://img.shields.io/endpoint?url={HOST}/{endpoint})"
    return (f'<h3>Badge</h3><p><img src="../{svg}" alt="csi {escape(group.contract)}: {escape(verdict)}"></p>'
            f"<p>Copy into a README (replace {escape(HOST)} with where the site is published):</p>"
            f"<pre>{escape(markdown)}</pre><p>Or through shields.io, from the endpoint JSON "
            f'<a href="../{endpoint}">{escape(endpoint)}</a>:</p><pre>{escape(shields)}</pre>')


def _history(runs: list) -> str:
    told = history(runs)
    if len(runs) < 2:
        return "<p>One run: no history yet.</p>"
    if not told.rows:
        return "<p>No check changed status between these versions.</p>"
    head = "".join(f'<th scope="col">{escape(v)}</th>' for v in told.versions)
    rows = "".join(f'<tr data-check="{escape(check)}"><th scope="row">{escape(check)}</th>'
                   + "".join(f'<td><span class="st {status_class(s)}">{escape(s)}</span></td>' if s else "<td></td>"
                             for s in shown) + "</tr>" for check, shown in told.rows)
    return (f"<table><caption>Transitions by version</caption><thead><tr><th scope=\"col\">check</th>{head}</tr>"
            f"</thead><tbody>{rows}</tbody></table>")
