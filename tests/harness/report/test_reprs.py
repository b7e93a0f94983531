"""The repr detector the broken-variant runs use: it finds a Python literal in any report, and no JSON."""

from __future__ import annotations

import dataclasses

from csi_conformance.harness.core.model import RunResult
from csi_conformance.schema import Contract

from .reprs import PYTHON_LITERAL, python_literals


def test_a_value_that_travelled_as_str_is_found_in_every_report(result: RunResult, contract: Contract) -> None:
    check = result.checks[0]
    check.findings[0] = dataclasses.replace(check.findings[0], received=str({"value": None, "ok": True}))
    assert set(python_literals(result, contract)) == {"console", "report.json", "junit.xml", "report.html"}


def test_the_same_value_as_json_is_not(result: RunResult, contract: Contract) -> None:
    check = result.checks[0]
    check.findings[0] = dataclasses.replace(check.findings[0], received={"value": None, "ok": True})
    assert python_literals(result, contract) == {}


def test_words_with_apostrophes_are_not_literals() -> None:
    assert PYTHON_LITERAL.findall("the reference's answer, the target's; 'a' quoted word") == []
    assert PYTHON_LITERAL.findall("{'a': 1}") and PYTHON_LITERAL.findall("[None]") and PYTHON_LITERAL.findall("b'x'")

