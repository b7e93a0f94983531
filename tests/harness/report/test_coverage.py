"""Traceability and the catalogue, over a private registry of a few checks."""

from __future__ import annotations

import io

import pytest
from csi_conformance.groundwork import jsonio
from csi_conformance.harness.core.model import Basis
from csi_conformance.harness.core.registry import Registry
from csi_conformance.harness.report import catalogue, clause_coverage, print_catalogue, render_coverage_markdown
from csi_conformance.harness.report.coverage import Proof
from csi_conformance.schema import Contract
from rich.console import Console


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
    rows = [line for line in text.split("## Untested clauses")[0].splitlines() if line.startswith("| `")]
    assert len(rows) == len(contract.clauses)
    assert "| `4.3-R1` | 4.3 | " in text and "`schema.result-shape`, `limits.validity-hashes` |" in text
    first = contract.clause("1-R1")
    assert f"| `1-R1` | 1 | {first.text} | {first.quote} | **untested** |" in text
    assert f"excluded: {contract.clause('2.11-R6').excluded} |" in text
    assert f"- `8-L2` (§8): {contract.clause('8-L2').text}" in text.split("## Untested clauses")[1]
    assert "- `2.11-R6` (§2.11)" in text.split("## Excluded clauses")[1]
    counts = clause_coverage(registry, contract)
    assert (f"{len(contract.clauses)} clauses: 4 covered by checks, {len(counts['excluded'])} excluded with a reason, "
            f"{len(counts['untested'])} untested.") in text
    assert all(row.count(" | ") == 4 for row in rows)  # pipes of the spec's tables never split a cell
    assert "\\| Hash \\| string \\| base58-encoded 32-byte hash \\|" in text  # 2.1-R2 quotes a table row


PROVEN = {"8-L1": [Proof("five-hashes", "limits.validity-hashes")],
          "6-R1": [Proof("events-pushed", "envelope.no-events")],  # "not shown": a proof cannot count
          "4.3-R1": [Proof(f"v{i}", "limits.validity-hashes") for i in range(5)]}


def test_with_proofs_a_clause_is_covered_only_by_one(registry: Registry, contract: Contract) -> None:
    coverage = clause_coverage(registry, contract, PROVEN)
    assert coverage["covered"] == {"8-L1": ["limits.validity-hashes"], "4.3-R1": ["limits.validity-hashes"]}
    assert coverage["unproven"]["4.1-R7"] == ["schema.result-shape"]  # cited, but no broken server shown
    assert "4.1-R7" in coverage["untested"] and "8-L2" in coverage["untested"]
    buckets = [set(coverage["covered"]), set(coverage["open"]), set(coverage["excluded"]), set(coverage["untested"])]
    assert sum(map(len, buckets)) == len(contract.clauses) and set().union(*buckets) == set(contract.clauses)


def test_a_silence_is_open_whoever_cites_or_proves_it(registry: Registry, contract: Contract) -> None:
    coverage = clause_coverage(registry, contract, PROVEN)
    silent = {clause.id for clause in contract.clauses.values() if clause.silent}
    assert set(coverage["open"]) == silent and {"6-R1", "8-S2", "9-S1", "4.2-S1"} <= silent
    assert coverage["open"]["6-R1"] == contract.clause("6-R1").excluded  # the contract's reason, when it gives one
    assert not silent & (set(coverage["covered"]) | set(coverage["untested"]) | set(coverage["excluded"]))


def test_markdown_with_proofs(registry: Registry, contract: Contract) -> None:
    text = render_coverage_markdown(registry, contract, PROVEN)
    coverage = clause_coverage(registry, contract, PROVEN)
    assert (f"{len(contract.clauses)} clauses: 2 covered (a broken server is shown caught violating each), "
            f"{len(coverage['open'])} open (the spec says \"not shown\": nothing to violate)") in text
    assert "caught: `five-hashes` by `limits.validity-hashes` |" in text
    assert "caught: `v0` by `limits.validity-hashes`, `v1` by `limits.validity-hashes`, `v2` by " \
           "`limits.validity-hashes` and 2 more |" in text
    assert "**untested**: cited by `schema.result-shape`, but no broken server is shown caught violating it" in text
    row = next(line for line in text.splitlines() if line.startswith("| `2.11-R5` |"))
    assert row.endswith("open: nothing to violate; readings recorded as `tlv-format` |")
    gaps = text.split("## Open: what the spec does not show")[1].split("## Excluded clauses")[0]
    assert gaps.count("\n| `") == len(coverage["open"]) and "| `9-S1` | 9 | Version negotiation" in gaps
    assert "| `4.3-S1` | 4.3 | Element shape of `newAddressesWithTrees`: not shown. | " \
           "`new-address-element` (object) |" in gaps
    points = text.split("## Ambiguities: points the spec leaves open or states twice")[1]
    assert points.count("\n| `") == len(contract.ambiguities)
    assert "| `tlv-format` | `2.11-R5`, `2.5-R1` | §2.11: Format of `tlv` contents: not shown. |" in points


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
