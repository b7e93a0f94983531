"""Traceability: which checks enforce which clause of the spec, and which clauses nothing tests.

Without `proven`, each clause lands in one bucket by what cites it: `covered` (a check cites it),
`excluded` (no check, with the contract's reason why none can exist) or `untested` (neither).

With `proven` (clause -> the broken servers declaring it, each with the check shown catching it,
which the kit's own tests assert), coverage must be earned: a clause is `covered` only when a
broken server violating it is shown caught with a finding citing it. A clause where the spec says
"not shown" is `open`: nothing a server does can violate it, so nothing can prove it, whoever
cites it. A clause that checks cite but no broken server proves is `untested`, and says so.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from csi_conformance.harness.core.registry import CheckSpec, Registry
from csi_conformance.schema import Contract
from csi_conformance.schema.model import Ambiguity, Clause

__all__ = ["Proof", "catalogue", "clause_coverage", "render_coverage_markdown"]

OPEN = "nothing to violate: the spec says it is not shown"
"""Why an open clause has no proof."""
SHOWN_PROOFS = 3
"""Broken servers named per covered clause on the page."""


@dataclass(frozen=True)
class Proof:
    """A broken server shown caught violating a clause, and the check that caught it."""

    variant: str
    check: str


def clause_coverage(registry: Registry, contract: Contract | None = None,
                    proven: Mapping[str, Sequence[Proof]] | None = None) -> dict[str, Any]:
    """`{"covered": {clause: [check ids]}, "open": {clause: why}, "excluded": {clause: reason},
    "untested": [clause], "unproven": {clause: [check ids citing it]}}`, in spec order (see the module's
    docstring for `proven`; without it `open` is empty and a cited clause is covered)."""
    contract = contract or registry.contract
    cited = _cited(registry)
    coverage: dict[str, Any] = {"covered": {}, "open": {}, "excluded": {}, "untested": [], "unproven": {}}
    for clause in contract.clauses.values():
        bucket, value = _bucket(clause, cited.get(clause.id, []), proven)
        if bucket == "untested":
            coverage["untested"].append(clause.id)
            if value:
                coverage["unproven"][clause.id] = value
        else:
            coverage[bucket][clause.id] = value
    return coverage


def _cited(registry: Registry) -> dict[str, list[str]]:
    cited: dict[str, list[str]] = {}
    for spec in registry.all():
        for clause in spec.clauses:
            cited.setdefault(clause, []).append(spec.id)
    return cited


def _bucket(clause: Clause, cited: list[str], proven: Mapping[str, Sequence[Proof]] | None) -> tuple[str, Any]:
    """The bucket of one clause and what it holds there (see `clause_coverage`)."""
    if proven is None:
        if cited:
            return "covered", cited
        return ("excluded", clause.excluded) if clause.excluded else ("untested", [])
    if clause.silent:
        return "open", clause.excluded or OPEN
    if proven.get(clause.id):
        return "covered", list(dict.fromkeys(proof.check for proof in proven[clause.id]))
    if clause.excluded:
        return "excluded", clause.excluded
    return "untested", cited


def render_coverage_markdown(registry: Registry, contract: Contract | None = None,
                             proven: Mapping[str, Sequence[Proof]] | None = None) -> str:
    """A Markdown page mapping every clause (id, section, text, the spec's words) to its checks, then the
    untested clauses, what the spec does not show, the excluded clauses and the ambiguities."""
    contract = contract or registry.contract
    coverage = clause_coverage(registry, contract, proven)
    sources = ["`schema/clauses.yaml`", "`schema/ambiguities.yaml`", "the check registry",
               *(["the kit's broken servers"] if proven is not None else [])]
    lines = [f"# Clause coverage of the indexer API {contract.version}", "",
             f"Generated from {', '.join(sources[:-1])} and {sources[-1]}; do not edit by hand.", "",
             *_rule(proven), _summary(contract, coverage, proven), "",
             "| Clause | Section | Text | The spec's words | Checks |", "|---|---|---|---|---|"]
    for clause in contract.clauses.values():
        lines.append(f"| `{clause.id}` | {clause.section} | {_md(clause.text)} | {_quote(clause)} | "
                     f"{_cell(contract, clause, coverage, proven)} |")
    lines += ["", "## Untested clauses", ""]
    lines += [_item(contract, c) for c in coverage["untested"]] or ["None."]
    lines += ["", *_gaps(contract)]
    lines += ["", "## Excluded clauses", ""]
    lines += [f"{_item(contract, c)} (why: {_md(reason)})" for c, reason in coverage["excluded"].items()] or ["None."]
    lines += ["", *_ambiguities(contract)]
    return "\n".join(lines) + "\n"


def _rule(proven: Mapping[str, Sequence[Proof]] | None) -> list[str]:
    if proven is None:
        return []
    return ["A clause is covered only when a broken server that violates it declares it and a check is shown "
            "catching that server with a finding that cites it (`tests/harness/test_broken_variants.py`). A "
            "clause where the spec says \"not shown\" is open: nothing can violate it, so nothing can prove it.", ""]


def _summary(contract: Contract, coverage: dict[str, Any], proven: Mapping[str, Sequence[Proof]] | None) -> str:
    if proven is None:
        covered = f"{len(coverage['covered'])} covered by checks"
    else:
        covered = (f"{len(coverage['covered'])} covered (a broken server is shown caught violating each), "
                   f"{len(coverage['open'])} open (the spec says \"not shown\": nothing to violate)")
    return (f"{len(contract.clauses)} clauses: {covered}, {len(coverage['excluded'])} excluded with a reason, "
            f"{len(coverage['untested'])} untested.")


def _cell(contract: Contract, clause: Clause, coverage: dict[str, Any],
          proven: Mapping[str, Sequence[Proof]] | None) -> str:
    """The Checks cell of one clause's row."""
    if clause.id in coverage["covered"]:
        if proven is None:
            return ", ".join(f"`{check}`" for check in coverage["covered"][clause.id])
        shown = proven[clause.id][:SHOWN_PROOFS]
        more = len(proven[clause.id]) - len(shown)
        return "caught: " + ", ".join(f"`{p.variant}` by `{p.check}`" for p in shown) + (
            f" and {more} more" if more else "")
    if clause.id in coverage["open"]:
        points = [f"`{amb.id}`" for amb in _points_of(contract, clause.id)]
        return "open: nothing to violate" + (f"; readings recorded as {', '.join(points)}" if points else "")
    if clause.id in coverage["unproven"]:
        return ("**untested**: cited by " + ", ".join(f"`{c}`" for c in coverage["unproven"][clause.id])
                + ", but no broken server is shown caught violating it")
    if clause.id in coverage["excluded"]:
        return f"excluded: {_md(coverage['excluded'][clause.id])}"
    return "**untested**"


def _points_of(contract: Contract, clause_id: str) -> list[Ambiguity]:
    return [amb for amb in contract.ambiguities.values() if clause_id in amb.clauses]


def _gaps(contract: Contract) -> list[str]:
    """Every "not shown" of the spec in one place, with the open points that record what targets do there."""
    silent = [clause for clause in contract.clauses.values() if clause.silent]
    lines = ["## Open: what the spec does not show", "",
             f"{len(silent)} clauses say what the spec does not show. A target cannot violate them; where an "
             "ambiguity point records what targets do instead (`csi ambiguities`), it is named here.", "",
             "| Clause | Section | The spec's words | Ambiguity points (observed practice) |", "|---|---|---|---|"]
    for clause in silent:
        points = ", ".join(f"`{amb.id}` ({amb.observed})" for amb in _points_of(contract, clause.id)) or "none"
        lines.append(f"| `{clause.id}` | {clause.section} | {_quote(clause)} | {points} |")
    return lines


def _ambiguities(contract: Contract) -> list[str]:
    lines = ["## Ambiguities: points the spec leaves open or states twice", "",
             "| Point | Clauses | The spec's words | Readings (source) | Observed practice | Checks |",
             "|---|---|---|---|---|---|"]
    for amb in contract.ambiguities.values():
        readings = "; ".join(f"`{r.name}`: {_md(r.source)}" for r in amb.readings.values())
        lines.append(f"| `{amb.id}` | {', '.join(f'`{c}`' for c in amb.clauses)} | "
                     f"§{contract.clauses[amb.clause].section}: {_md(amb.quote)} | {readings} | `{amb.observed}` | "
                     f"{', '.join(f'`{c}`' for c in amb.checks)} |")
    return lines


def _quote(clause: Clause) -> str:
    return _md(clause.quote) if clause.quote else "(a rule of the ledger, not the spec's words)"


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
