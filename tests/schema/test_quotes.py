"""Every clause and every ambiguity quotes the spec's own words, verbatim, from the section it names.

The quotes are checked against the copy of the spec shipped under schema/spec/ (a clone has no
`../shared`), which is checked against its recorded SHA-256 and, where `../shared/spec` sits beside
the checkout, against the shared original too.
"""

from __future__ import annotations

import hashlib
import re
import shutil
from pathlib import Path

import pytest
from csi_conformance.groundwork.errors import ContractError
from csi_conformance.schema import SCHEMA_DIR, Contract

SPEC = SCHEMA_DIR / "spec" / "indexer-api-0.50.0.md"
SUMS = SPEC.with_name(SPEC.name + ".sha256")
"""`sha256sum` format: the digest of the copy, recorded when it was taken."""
SHARED = SCHEMA_DIR.parents[1] / "shared" / "spec" / SPEC.name
HEADING = re.compile(r"^#{2,3} (\d+(?:\.\d+)?)[. ]", re.MULTILINE)
NOT_THE_SPEC = "ledger"
"""The section of the ledger's rules (ledger-facts.md): they are not the spec's and quote none."""


def sections(text: str) -> dict[str, str]:
    """The text under each numbered heading (`## 4.` or `### 4.2`), up to the next heading."""
    marks = list(HEADING.finditer(text))
    return {mark.group(1): text[mark.end():marks[i + 1].start() if i + 1 < len(marks) else len(text)]
            for i, mark in enumerate(marks)}


@pytest.fixture(scope="module")
def spec_sections() -> dict[str, str]:
    return sections(SPEC.read_text(encoding="utf-8"))


def test_the_copy_is_the_recorded_spec() -> None:
    """The copy must match its recorded SHA-256, and where `../shared` sits beside the checkout, the
    shared original too. A clone without `../shared` checks the copy against the sum only; the copy and
    the sum are always there, so the test never passes having examined nothing."""
    recorded, name = SUMS.read_text(encoding="utf-8").split()
    assert name == SPEC.name
    assert hashlib.sha256(SPEC.read_bytes()).hexdigest() == recorded, f"{SPEC} differs from its recorded SHA-256"
    if SHARED.parent.is_dir():
        assert SHARED.is_file() and SHARED.read_bytes() == SPEC.read_bytes(), f"{SHARED} differs from {SPEC}"


def test_sections_are_read_from_the_headings(spec_sections: dict[str, str]) -> None:
    assert list(spec_sections)[:4] == ["1", "2", "2.1", "2.2"] and "9" in spec_sections
    assert "| Hash | string |" in spec_sections["2.1"] and "| Hash | string |" not in spec_sections["2.2"]


def test_every_clause_quotes_its_section(contract: Contract, spec_sections: dict[str, str]) -> None:
    wrong = {clause.id: clause.quote for clause in contract.clauses.values() if clause.section != NOT_THE_SPEC
             and (not clause.quote or clause.quote not in spec_sections.get(clause.section, ""))}
    assert wrong == {}


def test_the_ledger_rules_quote_nothing(contract: Contract) -> None:
    ledger = [clause for clause in contract.clauses.values() if clause.section == NOT_THE_SPEC]
    assert ledger and [clause.id for clause in ledger if clause.quote] == []


def test_every_ambiguity_quotes_the_section_of_its_clause(contract: Contract,
                                                          spec_sections: dict[str, str]) -> None:
    wrong = {amb.id: amb.quote for amb in contract.ambiguities.values()
             if amb.quote not in spec_sections[contract.clauses[amb.clause].section]}
    assert wrong == {}


def test_every_not_shown_of_the_spec_has_a_silent_clause(contract: Contract) -> None:
    """Each "not shown" sentence of the spec is the quote of a clause the contract reads as silent."""
    lines = [line.strip("- ") for line in SPEC.read_text(encoding="utf-8").splitlines() if "not shown" in line]
    quoted = [clause for clause in contract.clauses.values() if clause.quote and clause.silent]
    missing = [line for line in lines if not any(line in clause.quote or clause.quote in line for clause in quoted)]
    assert len(lines) >= 15 and missing == []


def test_a_misquote_is_caught(spec_sections: dict[str, str]) -> None:
    """The check is literal: a quote with one word changed, or from another section, is not found."""
    assert "Parameter names are case-sensitive." in spec_sections["4.1"]
    assert "Parameter names are case sensitive." not in spec_sections["4.1"]
    assert "Parameter names are case-sensitive." not in spec_sections["4.2"]


def _copy_sources(tmp_path: Path) -> Path:
    target = tmp_path / "schema"
    shutil.copytree(SCHEMA_DIR, target, ignore=shutil.ignore_patterns("dist", "*.py", "__pycache__", "spec"))
    return target


@pytest.mark.parametrize(("change", "message"), [
    (("  quote: \"Parameter names are case-sensitive.\"", "  qoute: \"Parameter names are case-sensitive.\""),
     r"clause '4.1-R9': members are"),
    (("  also: [2.5-R1, 3.1-S2]", "  also: [2.5-R1, 3.1-S9]"), r"unknown clause id '3.1-S9'"),
    (("  evidence: \"a JSON-RPC error answer\"\n", ""), r"ambiguities.yaml#error-codes"),
])
def test_the_loader_refuses_a_misspelt_or_missing_member(tmp_path: Path, change: tuple[str, str],
                                                         message: str) -> None:
    root = _copy_sources(tmp_path)
    for name in ("clauses.yaml", "ambiguities.yaml"):
        path = root / name
        text = path.read_text(encoding="utf-8")
        path.write_text(text.replace(*change, 1), encoding="utf-8")
    with pytest.raises(ContractError, match=message):
        Contract(root)
