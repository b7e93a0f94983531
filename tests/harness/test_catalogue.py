"""The catalogue's traceability: every spec clause has a check or a stated reason for having none."""

from __future__ import annotations

import csi_conformance.harness.checks  # noqa: F401  (registers the catalogue)
import pytest
from csi_conformance.groundwork.errors import ContractError
from csi_conformance.harness.core.model import Basis
from csi_conformance.harness.core.registry import FAMILIES, REGISTRY, CheckSpec, Registry
from csi_conformance.harness.report.coverage import clause_coverage
from csi_conformance.schema import Contract


def test_every_clause_is_checked_or_excluded(contract: Contract) -> None:
    coverage = clause_coverage(REGISTRY, contract)
    assert coverage["untested"] == []
    assert set(coverage["covered"]) | set(coverage["excluded"]) == set(contract.clauses)


def test_every_family_has_checks() -> None:
    assert {spec.family for spec in REGISTRY.all()} == set(FAMILIES)


def test_an_answer_check_applies_where_the_answers_can_hold_what_it_judges(contract: Contract) -> None:
    """A check of token data applies to the token methods and the transaction that lists token balances, not
    to getIndexerHealth nor to the unknown-method probe; a definition the contract lacks is refused."""
    spec = CheckSpec("crypto.x", "crypto", ("ledger-H2",), Basis.LEDGER, "d", "answer", print,
                     carries="TokenData")
    applies = {name for name in contract.methods if spec.applies_to_answers(contract, name)}
    assert applies == {"getCompressedTokenAccountsByOwner", "getCompressedTokenAccountsByDelegate",
                       "getTransactionWithCompressionInfo"}
    assert not spec.applies_to_answers(contract, "getCompressedAccountz")
    with pytest.raises(ContractError, match="TokenDatum"):
        Registry(contract).add(CheckSpec("crypto.y", "crypto", ("ledger-H2",), Basis.LEDGER, "d", "answer", print,
                                         carries="TokenDatum"))


def test_checks_are_documented() -> None:
    """Every check says what it checks, and lives in its family's folder (tests/test_layers.py holds the rule)."""
    for spec in REGISTRY.all():
        assert spec.description and spec.function.__module__.startswith(
            f"csi_conformance.harness.checks.{spec.family}."), spec.id


def test_committed_clause_map_is_current(contract: Contract) -> None:
    from pathlib import Path

    from .clause_map import clause_map

    committed = (Path(__file__).resolve().parents[2] / "docs" / "clauses.md").read_text(encoding="utf-8")
    assert committed == clause_map(contract), "docs/clauses.md is stale: run `make export`"


def _printed(width: int | None, terminal: bool) -> str:
    import io

    from csi_conformance.harness.report.catalogue import print_catalogue
    from rich.console import Console

    console = Console(file=io.StringIO(), width=width or 80, force_terminal=terminal, color_system=None)
    print_catalogue(REGISTRY, as_json=False, console=console)
    return console.file.getvalue()


def test_csi_checks_reads_at_80_and_120_columns() -> None:
    for width in (80, 120):
        lines = _printed(width, terminal=True).splitlines()
        assert max(len(line) for line in lines) <= width
        words = " ".join(lines).split()
        for spec in REGISTRY.all():  # every id whole, every word of every description present
            assert spec.id in words
            assert " ".join(spec.description.split()) in " ".join(" ".join(lines).split())


def test_csi_checks_is_plain_text_when_piped() -> None:
    text = _printed(None, terminal=False)
    assert "\x1b" not in text and "│" not in text and "┃" not in text
    lines = text.splitlines()
    assert lines[0].startswith(f"{len(REGISTRY.all())} checks in {len(FAMILIES)} families")
    ids = [line.split()[0] for line in lines[2:] if not line.startswith(" ")]
    assert ids == [spec.id for spec in REGISTRY.all()]
    descriptions = [line.strip() for line in lines[2:] if line.startswith(" ")]
    assert descriptions == [" ".join(spec.description.split()) for spec in REGISTRY.all()]  # one line each
