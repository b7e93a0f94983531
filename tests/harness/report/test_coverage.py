"""Traceability and the catalogue, over a private registry of a few checks."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from harness.core.model import Basis
from harness.core.registry import Registry
from harness.report import catalogue, clause_coverage, print_catalogue, render_coverage_markdown
from schema import Contract, jsonio


@pytest.fixture
def registry(contract: Contract) -> Registry:
    registry = Registry(contract)

    @registry.check("limits.validity-hashes", clauses=("8-L1", "4.3-R1"), description="hash counts | limits",
                    methods=lambda method: method.limit_for("hashes") is not None)
    def validity_hashes(ctx, method): ...

    @registry.answer_check("schema.result-shape", clauses=("4.1-R7", "4.3-R1"), basis=Basis.AMBIGUITY,
                           description="every result matches its schema")
    def result_shape(ctx, answer): ...

    @registry.check("envelope.no-events", clauses=("6-R1",), description="nothing is pushed")
    def no_events(ctx): ...

    return registry


def test_every_clause_in_exactly_one_bucket(registry: Registry, contract: Contract) -> None:
    coverage = clause_coverage(registry, contract)
    covered, excluded, untested = coverage["covered"], set(coverage["excluded"]), set(coverage["untested"])
    assert set(covered) | excluded | untested == set(contract.clauses)
    assert len(covered) + len(excluded) + len(untested) == len(contract.clauses)
    assert covered == {"8-L1": ["limits.validity-hashes"], "4.3-R1": ["schema.result-shape", "limits.validity-hashes"],
                       "4.1-R7": ["schema.result-shape"], "6-R1": ["envelope.no-events"]}


def test_excluded_and_untested(registry: Registry, contract: Contract) -> None:
    coverage = clause_coverage(registry, contract)
    assert coverage["excluded"]["2.11-R6"] == contract.clause("2.11-R6").excluded
    assert "6-R1" not in coverage["excluded"]  # excluded in the contract, but a check cites it
    assert "1-R1" in coverage["untested"] and "8-L2" in coverage["untested"]
    assert coverage["untested"] == [c for c in contract.clauses if c in set(coverage["untested"])]  # spec order


def test_markdown_maps_every_clause(registry: Registry, contract: Contract) -> None:
    text = render_coverage_markdown(registry, contract)
    rows = [line for line in text.splitlines() if line.startswith("| `")]
    assert len(rows) == len(contract.clauses)
    assert "| `4.3-R1` | 4.3 | " in text and "`schema.result-shape`, `limits.validity-hashes` |" in text
    assert f"| `1-R1` | 1 | {contract.clause('1-R1').text} | **untested** |" in text
    assert f"excluded: {contract.clause('2.11-R6').excluded} |" in text
    assert f"- `8-L2` (§8): {contract.clause('8-L2').text}" in text.split("## Untested clauses")[1]
    assert "- `2.11-R6` (§2.11)" in text.split("## Excluded clauses")[1]
    counts = clause_coverage(registry, contract)
    assert (f"{len(contract.clauses)} clauses: 4 covered by checks, {len(counts['excluded'])} excluded with a reason, "
            f"{len(counts['untested'])} untested.") in text
    assert all(row.count(" | ") - row.count("\\|") == 3 for row in rows)  # pipes in text never split a cell


def test_catalogue(registry: Registry) -> None:
    entries = {entry["id"]: entry for entry in catalogue(registry)}
    assert list(entries) == ["envelope.no-events", "schema.result-shape", "limits.validity-hashes"]  # run order
    assert entries["limits.validity-hashes"] == {
        "id": "limits.validity-hashes", "family": "limits", "clauses": ["8-L1", "4.3-R1"], "basis": "spec",
        "description": "hash counts | limits", "kind": "active", "methods": ["getValidityProof"]}
    assert entries["schema.result-shape"]["basis"] == "ambiguity" and entries["schema.result-shape"]["kind"] == "answer"
    assert entries["envelope.no-events"]["methods"] is None


def test_print_catalogue(registry: Registry) -> None:
    console = Console(file=io.StringIO(), width=200)
    print_catalogue(registry, as_json=True, console=console)
    assert jsonio.loads(console.file.getvalue()) == catalogue(registry)
    console = Console(file=io.StringIO(), width=200)
    print_catalogue(registry, as_json=False, console=console)
    lines = console.file.getvalue().splitlines()
    assert lines[0].startswith("3 checks in ") and "every result matches its schema" in " ".join(lines).lower()
    index = lines.index("limits.validity-hashes  [active, spec, 1 methods; clauses 8-L1 4.3-R1]")
    assert lines[index + 1].startswith("    ")  # its description, under it
