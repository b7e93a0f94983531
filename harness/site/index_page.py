"""index.html: per group of runs that line up, the targets side by side.

For each group: every target's verdict, the clauses it earned and its checks per status (the judged ones,
then SKIP, N/A and INCONCLUSIVE apart: no percentage); the three lists per clause; then the matrix of
targets by family and by clause.
"""

from __future__ import annotations

from csi_conformance.harness.report.markup import anchor
from csi_conformance.harness.site.align import Group
from csi_conformance.harness.site.cells import NOT_JUDGED, Cell, matrix, summary
from csi_conformance.harness.site.lists import Lists, three_lists
from csi_conformance.harness.site.pages import Site, cell_html, escape, page
from csi_conformance.harness.site.readings import clause_text, point_of
from csi_conformance.harness.site.triage import Triage, issues_for

__all__ = ["group_lists", "index_page"]


def group_lists(group: Group, reference: str | None) -> Lists:
    return three_lists(matrix(group.latest(), "clause"), group.reference(reference))


def index_page(site: Site, groups: list[Group], triage: list[Triage], reference: str | None) -> str:
    intro = (f"<p>{len(groups)} group(s) of runs. Runs are compared only inside a group: one kit version, one "
             "contract, one ledger. Each cell is a status and the basis it rests on; SKIP, N/A and INCONCLUSIVE "
             "say the check judged nothing and are never counted as a pass or a fail.</p>")
    toc = "".join(f'<li><a href="#{_id(g)}">{escape(g.title)}</a></li>' for g in groups)
    body = intro + (f'<ul>{toc}</ul>' if groups else "")
    return page("Targets side by side", body + "".join(_group(site, g, triage, reference) for g in groups))


def _id(group: Group) -> str:
    return anchor("group", group.key)


def _group(site: Site, group: Group, triage: list[Triage], reference: str | None) -> str:
    latest = group.latest()
    families, clauses = matrix(latest, "family"), matrix(latest, "clause")
    ref = group.reference(reference)
    return (f'<section aria-labelledby="{_id(group)}"><h2 id="{_id(group)}">{escape(group.title)}</h2>'
            f"{_targets(site, group, ref)}{_lists(site, group, three_lists(clauses, ref))}"
            f"{_matrix(site, group, families, 'family', triage)}{_matrix(site, group, clauses, 'clause', triage)}"
            "</section>\n")


def _targets(site: Site, group: Group, ref: str | None) -> str:
    rows = []
    for name, result in group.latest().items():
        told = summary(result)
        judged = ", ".join(f"{status} {n}" for status, n in told.judged.items() if n) or "none"
        apart = ", ".join(f"{status} {told.apart[status]}" for status in NOT_JUDGED)
        badge = site.badge(name, group.contract, "svg")
        role = " (reference)" if name == ref else ""
        rows.append(f'<tr><th scope="row"><a href="{site.target_page(name)}">{escape(name)}</a>{role}</th>'
                    f"<td>{escape(result.target_version or '—')}</td><td>{escape(told.verdict)}</td>"
                    f"<td>{len(told.earned)}</td><td>{escape(judged)}</td><td>{escape(apart)}</td>"
                    f'<td><img src="{badge}" alt="csi {escape(group.contract)}: {escape(told.verdict)}"></td></tr>')
    head = ("<tr><th scope=\"col\">target</th><th scope=\"col\">version</th><th scope=\"col\">verdict</th>"
            "<th scope=\"col\">clauses earned</th><th scope=\"col\">checks judged</th>"
            "<th scope=\"col\">judged nothing</th><th scope=\"col\">badge</th></tr>")
    return f"<table><caption>Targets, each at its latest version</caption><thead>{head}</thead>" \
           f"<tbody>{''.join(rows)}</tbody></table>"


def _lists(site: Site, group: Group, lists: Lists) -> str:
    only = "".join(f'<li data-list="only-on" data-clause="{escape(c)}" data-target="{escape(t)}">'
                   f'{_clause_link(group, c)} fails only on <a href="{site.target_page(t)}">{escape(t)}</a></li>'
                   for c, t in lists.only_on)
    every = "".join(f'<li data-list="everyone" data-clause="{escape(c)}">{_clause_link(group, c)}: '
                    f'<a href="ambiguities.html#{_point_anchor(group, c)}">a question for the spec</a></li>'
                    for c in lists.everyone)
    ref = "".join(f'<li data-list="only-reference" data-clause="{escape(c)}">{_clause_link(group, c)}</li>'
                  for c in lists.only_reference)
    none = "<li>none</li>"
    return ("<h3>Fails only on this target (a vendor’s bug)</h3>"
            f"<ul>{only or none}</ul><h3>Every target differs from the spec (a question for the spec)</h3>"
            f"<ul>{every or none}</ul><h3>Only the reference differs (an alarm for the kit)</h3>"
            f"<ul>{ref or none}</ul>")


def _clause_link(group: Group, clause: str) -> str:
    return f'<a href="#{anchor(_id(group), "clause", clause)}">{escape(clause)}</a>'


def _point_anchor(group: Group, clause: str) -> str:
    point = point_of(group.contract, clause)
    return anchor("point", group.contract, point) if point else anchor("contract", group.contract)


def _matrix(site: Site, group: Group, rows: list[tuple[str, dict[str, Cell]]], by: str,
            triage: list[Triage]) -> str:
    names = group.targets()
    head = "".join(f'<th scope="col"><a href="{site.target_page(n)}">{escape(n)}</a></th>' for n in names)
    body = []
    for row, cells in rows:
        label = escape(row)
        if by == "clause":
            label = (f'<span id="{anchor(_id(group), "clause", row)}">{label}</span>'
                     f'<span class="basis">{escape(clause_text(group.contract, row))}</span>')
        tds = "".join(cell_html(cells[n], _issues(triage, n, cells[n], row if by == "clause" else None))
                      for n in names)
        body.append(f'<tr><th scope="row">{label}</th>{tds}</tr>')
    return (f"<table><caption>Targets by {by}</caption><thead><tr><th scope=\"col\">{by}</th>{head}</tr></thead>"
            f"<tbody>{''.join(body)}</tbody></table>")


def _issues(triage: list[Triage], name: str, cell: Cell, clause: str | None) -> list[str]:
    if cell.status in ("PASS", "") or cell.status in NOT_JUDGED:
        return []
    return issues_for(triage, name, cell.checks, [clause] if clause else [])
