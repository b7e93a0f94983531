"""docs/clauses.md: every clause with the checks that cite it and the broken servers shown caught violating it.

A clause counts as covered only through a broken variant (tests/harness/broken.py and
variants_*.py) whose caught findings cite it, which tests/harness/test_broken_variants.py asserts.
`make export` writes the page: `python -m tests.harness.clause_map > docs/clauses.md`.
"""

from __future__ import annotations

import sys

import harness.checks  # noqa: F401  (registers the catalogue)
from harness.core.registry import REGISTRY
from harness.report.coverage import render_coverage_markdown
from schema import Contract

from .broken import Variant, all_variants


def proven_clauses(variant: Variant) -> tuple[str, ...]:
    """The clauses a variant shows its check catching: those it declares, else all its check cites."""
    return variant.clauses or REGISTRY.get(variant.check).clauses


def proven_by_variants() -> dict[str, list[str]]:
    """clause -> names of the variants shown caught violating it."""
    proven: dict[str, list[str]] = {}
    for variant in all_variants():
        for clause in proven_clauses(variant):
            proven.setdefault(clause, []).append(variant.name)
    return proven


def clause_map(contract: Contract | None = None) -> str:
    return render_coverage_markdown(REGISTRY, contract or Contract.default(), proven_by_variants())


if __name__ == "__main__":
    sys.stdout.write(clause_map())
