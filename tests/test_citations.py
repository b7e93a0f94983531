"""Every document a user-facing text cites is in the repository: a user's clone can read every name.

User-facing: the README and the other documents, the contract's YAML and the JSON schemas (their texts reach
findings, reports and exports), and every string of the code that is not a docstring (messages, labels,
report texts). A cited `.md` must be a path from the repository's root or from the citing file's folder;
nothing may point outside the repository (`../shared/…`). Docstrings, for developers, may name a note of
`docs/` by its file name alone.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("groundwork", "harness", "reference_server", "schema", "cases", "ledger_crypto", "ledger_ingest",
            "ledger_chain", "ledger_proofs")
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")), *sorted(ROOT.glob("*/README.md")),
             *sorted(ROOT.glob("*/*/README.md")), *sorted((ROOT / "schema").glob("*.yaml")),
             *sorted((ROOT / "schema" / "methods").glob("*.yaml")), *sorted(ROOT.glob("*/*.schema.json")),
             *sorted(ROOT.glob("*/*/*.schema.json"))]
CITED = re.compile(r"(?:\.\./)*[\w./-]*[\w-]\.md\b|\.\./shared\b[\w./-]*")


def _resolves(name: str, where: Path, *, bare_in_docs: bool = False) -> bool:
    if name.startswith("../shared") or "shared/design" in name:
        return False
    if (ROOT / name).is_file() or (where.parent / name).is_file():
        return (where.parent / name).resolve().is_relative_to(ROOT) or (ROOT / name).is_file()
    return bare_in_docs and "/" not in name and (ROOT / "docs" / name).is_file()


def _strings(path: Path) -> tuple[list[str], list[str]]:
    """A Python file's strings: (user-facing ones, docstrings and comments)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = {id(node.body[0].value) for node in ast.walk(tree)
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body
            and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
    for node in ast.walk(tree):  # attribute docstrings: a string statement after an assignment
        body = getattr(node, "body", None)
        if isinstance(body, list):
            docs |= {id(stmt.value) for stmt in body
                     if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)}
    user, developer = [], [line for line in path.read_text(encoding="utf-8").splitlines() if "#" in line]
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            (developer if id(node) in docs else user).append(node.value)
    return user, developer


def _sources() -> list[Path]:
    return sorted(p for package in PACKAGES for p in (ROOT / package).rglob("*.py"))


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_a_document_cites_only_what_the_repository_has(document: Path) -> None:
    text = document.read_text(encoding="utf-8")
    missing = sorted({name for name in CITED.findall(text) if not _resolves(name, document)})
    assert not missing, f"{document.relative_to(ROOT)} cites {missing}, which a user's clone does not have"


def test_the_code_cites_only_what_the_repository_has() -> None:
    missing = []
    for source in _sources():
        user, developer = _strings(source)
        missing += [f"{source.relative_to(ROOT)}: {name}" for text in user for name in CITED.findall(text)
                    if not _resolves(name, source)]
        missing += [f"{source.relative_to(ROOT)} (docstring): {name}" for text in developer
                    for name in CITED.findall(text) if not _resolves(name, source, bare_in_docs=True)]
    assert not missing, "\n".join(missing)
