"""Traceability: which checks enforce which clause of the spec, and which clauses nothing tests.

Each clause lands in exactly one bucket: `covered` (at least one check cites it), `excluded`
(no check, with the contract's reason why none can exist), or `untested` (neither: a gap).
A clause marked excluded that a check cites anyway counts as covered.

Given `proven` (clause -> the broken servers shown to be caught violating it, which the kit's own
tests know), a clause counts as covered only when one proves it: a check that merely cites a
clause has not shown it can catch a violation, so such a clause is untested, with that said.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from harness.core.registry import CheckSpec, Registry
from schema import Contract

__all__ = ["catalogue", "clause_coverage", "render_coverage_markdown"]


def clause_coverage(registry: Registry, contract: Contract | None = None,
                    proven: Mapping[str, list[str]] | None = None) -> dict[str, Any]:
    """`{"covered": {clause: [check ids]}, "excluded": {clause: reason}, "untested": [clause],
    "unproven": {clause: [check ids]}}`, in spec order (see the module's docstring for `proven`)."""
    contract = contract or registry.contract
    cited: dict[str, list[str]] = {}
    for spec in registry.all():
        for clause in spec.clauses:
            cited.setdefault(clause, []).append(spec.id)
    covered, excluded, untested, unproven = {}, {}, [], {}
    for clause in contract.clauses.values():
        if clause.id in cited and proven is not None and clause.id not in proven and not clause.excluded:
            unproven[clause.id] = cited[clause.id]
            untested.append(clause.id)
        elif clause.id in cited and (proven is None or clause.id in proven):
            covered[clause.id] = cited[clause.id]
        elif clause.excluded:
            excluded[clause.id] = clause.excluded
        else:
            untested.append(clause.id)
    return {"covered": covered, "excluded": excluded, "untested": untested, "unproven": unproven}


def render_coverage_markdown(registry: Registry, contract: Contract | None = None,
                             proven: Mapping[str, list[str]] | None = None) -> str:
    """A Markdown page mapping every clause (id, section, text) to its checks, then the gaps."""
    contract = contract or registry.contract
    coverage = clause_coverage(registry, contract, proven)
    covered, excluded, untested = coverage["covered"], coverage["excluded"], coverage["untested"]
    unproven = coverage["unproven"]
    how = "covered: a broken server is shown caught violating it" if proven is not None else "covered by checks"
    lines = [
        f"# Clause coverage of the indexer API {contract.version}",
        "",
        "Generated from `schema/clauses.yaml` and the check registry; do not edit by hand.",
        "",
        f"{len(contract.clauses)} clauses: {len(covered)} {how}, {len(excluded)} excluded with a reason, "
        f"{len(untested)} untested.",
        "",
        "| Clause | Section | Text | Checks |",
        "|---|---|---|---|",
    ]
    for clause in contract.clauses.values():
        if clause.id in covered:
            checks = ", ".join(f"`{check}`" for check in covered[clause.id])
            if proven is not None:
                checks += " (caught: " + ", ".join(f"`{name}`" for name in proven[clause.id][:3]) + ")"
        elif clause.id in unproven:
            checks = "**untested**: cited by " + ", ".join(f"`{c}`" for c in unproven[clause.id]) + \
                ", but no broken server is shown caught violating it"
        elif clause.id in excluded:
            checks = f"excluded: {_md(excluded[clause.id])}"
        else:
            checks = "**untested**"
        lines.append(f"| `{clause.id}` | {clause.section} | {_md(clause.text)} | {checks} |")
    lines += ["", "## Untested clauses", ""]
    lines += [_item(contract, c) for c in untested] or ["None."]
    lines += ["", "## Excluded clauses", ""]
    lines += [f"{_item(contract, c)} (why: {_md(reason)})" for c, reason in excluded.items()] or ["None."]
    return "\n".join(lines) + "\n"


def _item(contract: Contract, clause_id: str) -> str:
    clause = contract.clauses[clause_id]
    return f"- `{clause.id}` (§{clause.section}): {_md(clause.text)}"


def _md(text: str) -> str:
    """Text safe inside a Markdown table cell: one line, pipes escaped."""
    return " ".join(text.split()).replace("|", "\\|")


def catalogue(registry: Registry) -> list[dict[str, Any]]:
    """Every registered check as plain values, families in run order (`csi checks`)."""
    return [_entry(spec, registry) for spec in registry.all()]


def _entry(spec: CheckSpec, registry: Registry) -> dict[str, Any]:
    methods = None
    if spec.methods is not None:
        methods = [m.name for m in registry.contract.methods.values() if spec.applies_to(m)]
    return {"id": spec.id, "family": spec.family, "clauses": list(spec.clauses), "basis": spec.basis.value,
            "description": spec.description, "kind": spec.kind, "methods": methods}
