"""Import rules that keep the kit's layers apart (ARCHITECTURE.md, style-anchors.md)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

FORBIDDEN = {
    "schema": {"harness", "reference_server", "ledger_crypto", "cases"},
    "ledger_crypto": {"harness", "reference_server", "schema", "cases"},
    "ledger_ingest": {"harness", "reference_server", "cases"},
    "ledger_proofs": {"harness", "reference_server", "cases"},
    "reference_server": {"harness"},
    "cases": {"harness"},
    "harness": {"reference_server", "cases.fill", "cases.cli", "cases.generate_requests", "cases.case_builder",
                "cases.request_tables"},
    "harness/core": {"harness.engine", "harness.checks", "harness.report", "harness.target", "harness.cli"},
}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_layer_imports(package: str) -> None:
    files = sorted((ROOT / package).rglob("*.py"))
    assert files, package
    for path in files:
        for name in _imports(path):
            for banned in FORBIDDEN[package]:
                assert not (name == banned or name.startswith(banned + ".")), f"{path}: imports {name}"
