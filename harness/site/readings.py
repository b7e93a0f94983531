"""ambiguities.html, the spec authors' view: for each point the spec leaves open, the reading each target
followed (from its latest run's observations), or that its run could not tell and why.

Also the contract look-ups the other pages need (a clause's text, the open point a clause bears on),
which say "" for a contract this kit does not ship rather than failing the build.
"""

from __future__ import annotations

from functools import cache

from csi_conformance.harness.core.errors import CsiError
from csi_conformance.harness.report.markup import anchor
from csi_conformance.harness.site.align import Group
from csi_conformance.harness.site.pages import escape, page
from csi_conformance.schema import Contract

__all__ = ["clause_text", "contract_for", "point_of", "readings_page"]


@cache
def contract_for(name: str) -> Contract | None:
    try:
        return Contract.for_api(name)
    except CsiError:
        return None


def clause_text(contract: str, clause: str) -> str:
    found = contract_for(contract)
    return found.clauses[clause].text if found is not None and clause in found.clauses else ""


def point_of(contract: str, clause: str) -> str | None:
    """The first open point (by id) that bears on `clause`, if any."""
    found = contract_for(contract)
    if found is None:
        return None
    return next((a.id for a in sorted(found.ambiguities.values(), key=lambda a: a.id)
                 if clause == a.clause or clause in a.also), None)


def readings_page(groups: list[Group]) -> str:
    contracts = sorted({group.contract for group in groups})
    body = "".join(_contract(name, [g for g in groups if g.contract == name]) for name in contracts)
    return page("Readings of the spec’s open points", body or "<p>No reports.</p>")


def _contract(name: str, groups: list[Group]) -> str:
    contract = contract_for(name)
    head = f'<h2 id="{anchor("contract", name)}">Contract {escape(name)}</h2>'
    if contract is None:
        return head + "<p>This kit does not ship that contract: its open points are not known here.</p>"
    columns = [(group, target) for group in groups for target in group.targets()]
    ths = "".join(f'<th scope="col">{escape(t)}<span class="basis">{escape(g.ledger or "own data")} · kit '
                  f'{escape(g.kit)}</span></th>' for g, t in columns)
    rows = []
    for amb in sorted(contract.ambiguities.values(), key=lambda a: a.id):
        readings = ", ".join(sorted(amb.readings))
        point = (f'<th scope="row" id="{anchor("point", name, amb.id)}">{escape(amb.id)}'
                 f'<span class="basis">{escape(", ".join((amb.clause, *amb.also)))}</span></th>'
                 f"<td>{escape(amb.question)}<span class=\"basis\">readings: {escape(readings)}; observed "
                 f"practice: {escape(amb.observed)}</span></td>")
        cells = "".join(_followed(g, t, amb.id) for g, t in columns)
        rows.append(f"<tr>{point}{cells}</tr>")
    return (head + f"<table><caption>Which reading each target followed</caption><thead><tr>"
            f'<th scope="col">point</th><th scope="col">question</th>{ths}</tr></thead>'
            f"<tbody>{''.join(rows)}</tbody></table>")


def _followed(group: Group, target: str, point: str) -> str:
    seen = next((o for o in group.latest()[target].observations if o.ambiguity == point), None)
    if seen is None or not seen.answers:
        why = seen.reason if seen is not None and seen.reason else "not exercised by this run"
        return f'<td class="absent">not told<span class="basis">{escape(why)}</span></td>'
    counts = ", ".join(f"{reading} {n}/{seen.answers}" for reading, n in sorted(seen.counts.items()))
    followed = ", ".join(seen.readings) or "no single reading"
    return f'<td>{escape(followed)}<span class="basis">{escape(counts)}</span></td>'
