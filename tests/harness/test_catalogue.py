"""The catalogue's traceability: every spec clause has a check or a stated reason for having none."""

from __future__ import annotations

import harness.checks  # noqa: F401  (registers the catalogue)
from harness.core.registry import FAMILIES, REGISTRY
from harness.report.coverage import clause_coverage
from schema import Contract


def test_every_clause_is_checked_or_excluded(contract: Contract) -> None:
    coverage = clause_coverage(REGISTRY, contract)
    assert coverage["untested"] == []
    assert set(coverage["covered"]) | set(coverage["excluded"]) == set(contract.clauses)


def test_every_family_has_checks() -> None:
    assert {spec.family for spec in REGISTRY.all()} == set(FAMILIES)


MODULES = {"schema": ("schemas",), "differential": ("differential", "mirror")}
"""Family -> the check modules that hold it, where the module is not named after the family."""


def test_checks_are_documented() -> None:
    for spec in REGISTRY.all():
        modules = {f"harness.checks.{name}" for name in MODULES.get(spec.family, (spec.family,))}
        assert spec.description and spec.function.__module__ in modules, spec.id


def test_committed_clause_map_is_current(contract: Contract) -> None:
    from pathlib import Path

    from harness.report.coverage import render_coverage_markdown

    committed = (Path(__file__).resolve().parents[2] / "docs" / "clauses.md").read_text(encoding="utf-8")
    assert committed == render_coverage_markdown(REGISTRY, contract), "docs/clauses.md is stale: run `make export`"
