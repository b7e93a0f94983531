"""replay: which readings a difference rests on, what a case rests on, and what kind of answer came back."""

from __future__ import annotations

from pathlib import Path

from csi_conformance.cases.model import Case
from csi_conformance.harness.checks.differential.checks import case_basis
from csi_conformance.harness.checks.differential.normalize import comparable
from csi_conformance.harness.checks.differential.replay import outcome, reading_gaps
from csi_conformance.harness.connection import NOT_JSON, Exchange, Target
from csi_conformance.harness.context import Answer, CheckContext, RunFacts, steering
from csi_conformance.harness.core.model import Basis
from csi_conformance.harness.core.profile import PROFILES
from csi_conformance.schema import Contract

HASH = "3b87PJpKvNqc91TG3Ut2u4uFGWfQEMRTStSDJow1Ewxu"
TREE = "smt1NamzXdq4AMqS2fS2F1i5KTYPZRhoHgWx38d8WsT"
WIRE = {"compressedProof": None, "roots": [HASH], "rootIndices": [1], "leafIndices": [0], "leaves": [HASH],
        "merkleTrees": [TREE]}
SPEC_2_10 = {"compressedProof": None, "roots": [HASH], "rootIndices": [1], "leafIndices": [0], "leaves": [HASH],
             "treeInfos": [{}], "proveByIndices": [False]}


def _proof(value: dict) -> dict:
    return comparable({"jsonrpc": "2.0", "id": 1, "result": {"context": {"slot": 1}, "value": value}})


def test_another_reading_of_a_point_the_answer_touches_is_a_gap(contract: Contract) -> None:
    assert reading_gaps(contract, "getValidityProof", _proof(SPEC_2_10), _proof(WIRE), None) == [
        "validity-proof-fields"]
    assert reading_gaps(contract, "getValidityProof", _proof(WIRE), _proof(WIRE), None) == []


def test_a_case_tag_is_a_gap_unless_both_are_seen_to_follow_one_reading(contract: Contract) -> None:
    """A params point (validity-hashes-required) cannot be seen in the answer: the doubt goes to the target."""
    assert reading_gaps(contract, "getValidityProof", _proof(WIRE), _proof(WIRE), "validity-hashes-required") == [
        "validity-hashes-required"]
    assert reading_gaps(contract, "getValidityProof", _proof(WIRE), _proof(WIRE), "validity-proof-fields") == []
    assert reading_gaps(contract, "noSuchMethod", {"other": None}, {"other": None}, "error-codes") == ["error-codes"]


def _case(clauses: tuple[str, ...]) -> Case:
    return Case("m/n", "getIndexerSlot", Path("m/n.io"), "d", clauses, "exact", "default", {})


def _context(contract: Contract) -> CheckContext:
    return CheckContext(RunFacts(contract=contract, profile=PROFILES["spec"]), Target("http://127.0.0.1:9"),
                        lambda c, a: None)


def test_a_case_rests_on_the_spec_unless_it_cites_only_silences(contract: Contract) -> None:
    ctx = _context(contract)
    assert case_basis(ctx, _case(("4.2-M19",))) is Basis.SPEC
    assert case_basis(ctx, _case(("7-R5", "8-S2"))) is Basis.OBSERVED
    assert case_basis(ctx, _case(("7-R5", "7-C1"))) is Basis.SPEC
    steering.target_of(ctx).close()


def _answer(status: int | None, body: bytes, json: object = NOT_JSON, error: str | None = None) -> Answer:
    return Answer("getIndexerSlot", None, Exchange("getIndexerSlot", "/", "http://x/", {}, status, {}, body, 0.0,
                                                   json=json, error=error))


def test_outcome_names_the_kind_of_answer() -> None:
    assert outcome(_answer(200, b"{}", {"jsonrpc": "2.0", "id": 1, "result": 5})) == "result"
    assert outcome(_answer(200, b"{}", {"jsonrpc": "2.0", "id": 1, "error": {"code": 1, "message": "m"}})) == "error"
    assert outcome(_answer(500, b"{}", {"error": "Internal server error"})) == "failure"
    assert outcome(_answer(204, b"")) == "other"  # a notification answered with no body
    assert outcome(_answer(200, b"<html>")) == "none"
    assert outcome(_answer(None, b"", error="timed out")) == "none"
