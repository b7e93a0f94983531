"""docs/clauses.md: every clause with the checks that cite it and the broken servers shown caught violating it.

A clause counts as covered only through a broken variant (tests/harness/broken.py and
variants_*.py) that declares it in `Variant.clauses` and whose caught findings cite it, which
tests/harness/test_broken_variants.py asserts. A variant that declares nothing proves nothing;
a clause where the spec says "not shown" can be declared by none (there is nothing to violate).
`make export` writes the page: `python -m tests.harness.clause_map > docs/clauses.md`.
"""

from __future__ import annotations

import sys

import csi_conformance.harness.checks  # noqa: F401  (registers the catalogue)
from csi_conformance.harness.core.registry import REGISTRY
from csi_conformance.harness.report.coverage import Proof, render_coverage_markdown
from csi_conformance.schema import Contract

from .broken import all_variants


def proven_by_variants() -> dict[str, list[Proof]]:
    """clause -> the variants declaring it, each with the check shown catching it."""
    proven: dict[str, list[Proof]] = {}
    for variant in all_variants():
        for clause in variant.clauses:
            proven.setdefault(clause, []).append(Proof(variant.name, variant.check))
    return proven


def clause_map(contract: Contract | None = None) -> str:
    return render_coverage_markdown(REGISTRY, contract or Contract.default(), proven_by_variants())


if __name__ == "__main__":
    sys.stdout.write(clause_map())
