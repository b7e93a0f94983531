"""The differential family over real HTTP: a reference variant that is wrong in one way is caught,
one that only differs where differences are allowed is not, and the reference equals itself."""

from __future__ import annotations

import dataclasses
from typing import Any

import csi_conformance.harness.checks  # noqa: F401  (registers the catalogue)
import pytest
from csi_conformance.cases.loader import scenario_cases
from csi_conformance.harness.checks.differential.replay import ANSWER, CODE
from csi_conformance.harness.connection import Target
from csi_conformance.harness.core.model import Basis, RunResult, Status
from csi_conformance.harness.core.profile import PROFILES
from csi_conformance.harness.engine.runner import run
from csi_conformance.harness.report.junit import finding_text
from csi_conformance.reference_server.errors import INVALID_PARAMS, RpcError

from ..broken import Dispatch, Variant, _on, serving
from ..run_args import run_args
from . import variants

ONLY = ["differential.cases", "differential.generated"]


def _run(variant: Variant | None, reference_url: str | None, cases: list, **config: Any) -> RunResult:
    with serving(variant) as url, Target(url) as target:
        reference = Target(reference_url) if reference_url else None
        try:
            return run(target, *run_args(profile=PROFILES["spec"], only=ONLY, scenario="default", cases=cases,
                                         **config), reference=reference)
        finally:
            if reference is not None:
                reference.close()


def _differential(result: RunResult) -> list:
    return [f for f in result.findings if f.check_id.startswith("differential.")]


def test_the_reference_differs_from_itself_in_nothing(reference_url: str, built_cases: list) -> None:
    result = _run(None, reference_url, built_cases)
    assert _differential(result) == []
    assert {c.check_id: c.status for c in result.checks} == {i: Status.PASS for i in ONLY}
    generated = next(c for c in result.checks if c.check_id == "differential.generated")
    assert len(generated.methods) == 19 and generated.skipped == []


def _balance_differs(reference: dict, target: dict) -> bool:
    return "$.result.value" in reference and reference["$.result.value"] != target.get("$.result.value")


def _item_missing(reference: dict, target: dict) -> bool:
    return any(path.startswith("$.result.value.items[") and path not in target for path in reference)


def _wrong_hash(reference: dict, target: dict) -> bool:
    return target.get("$.result.value.hash") == variants.WRONG_HASH and "$.result.value.hash" in reference


def _error_code(reference: dict, target: dict) -> bool:
    return (reference, target) == ({"$.error.code": -32000}, {"$.error.code": -32001})


@pytest.mark.parametrize(("variant", "method", "title", "basis", "shows"), [
    (variants.BALANCE, "getCompressedBalanceByOwner", ANSWER, Basis.SPEC, _balance_differs),
    (variants.WRONG_PAGE, "getCompressedAccountsByOwner", ANSWER, Basis.SPEC, _item_missing),
    (variants.WRONG_HASH_VARIANT, "getCompressedAccount", ANSWER, Basis.SPEC, _wrong_hash),
    (variants.ERROR_CODE, "getCompressedAccount", CODE, Basis.OBSERVED, _error_code),
], ids=["wrong-balance", "wrong-page", "wrong-hash", "changed-error-code"])
def test_a_wrong_answer_is_a_finding_showing_both(reference_url: str, built_cases: list, variant: Variant,
                                                  method: str, title: str, basis: Basis, shows) -> None:
    result = _run(variant, reference_url, built_cases)
    found = [f for f in _differential(result) if f.method == method and f.title == title]
    assert found, [(f.check_id, f.method, f.title) for f in result.findings]
    for finding in found:
        assert finding.basis is basis and finding.status is PROFILES["spec"].status_for(basis)
        assert finding.kind == "difference" and shows(finding.expected, finding.received), finding_text(finding)
        assert "allowed differences" in finding.detail and finding.path in {**finding.expected, **finding.received}
        assert finding.request["method"] == method
        assert finding.response is not None and finding.reference_response is not None
        assert finding.response != finding.reference_response
    if basis is Basis.SPEC:
        assert {f.check_id for f in found} == set(ONLY), "both the cases and the generated requests see it"
    else:
        assert found[0].clauses == ("7-R5",)


def _probe(variant: Variant, method: str, params: Any) -> Any:
    with serving(variant) as url, Target(url) as target:
        return target.call(method, params).json


def test_a_changed_message_alone_is_no_difference(reference_url: str, built_cases: list) -> None:
    both = next(c for c in built_cases if c.name.endswith("both-given")).request["params"]
    assert _probe(variants.ERROR_MESSAGE, "getCompressedAccount", both)["error"]["message"] == "something else entirely"
    result = _run(variants.ERROR_MESSAGE, reference_url, built_cases)
    assert _differential(result) == []
    assert all(c.status is Status.PASS for c in result.checks)


def test_answers_under_other_readings_are_no_difference(reference_url: str, built_cases: list,
                                                        keys: dict[str, str]) -> None:
    probe = _probe(variants.OTHER_READINGS, "getCompressedTokenAccountsByOwner", {"owner": keys["token_owner"]})
    item = probe["result"]["value"]["items"][0]
    assert type(item["tokenData"]["state"]) is int and "address" not in item["account"]
    result = _run(variants.OTHER_READINGS, reference_url, built_cases)
    assert _differential(result) == []
    assert all(c.status is Status.PASS for c in result.checks)


def test_a_recorded_answer_the_reference_no_longer_gives_is_noted(reference_url: str, built_cases: list) -> None:
    by_hash = next(c for c in built_cases if c.name.endswith("by-hash"))
    stale = dataclasses.replace(by_hash, response={"jsonrpc": "2.0", "id": by_hash.name, "result": {
        "context": {"slot": 1010}, "value": None}})
    result = _run(None, reference_url, [stale])
    assert _differential(result) == []
    assert any(f"({by_hash.name})" in note and "csi cases fill" in note for note in result.notes)


def _own_cursors(real: Dispatch, method: str, params: Any) -> Any:
    """Cursors of another format: the reference's own cursors are refused, the target's work."""
    if isinstance(params, dict) and isinstance(params.get("cursor"), str):
        if not params["cursor"].startswith("t:"):
            raise RpcError(INVALID_PARAMS, "not a cursor of this server")
        params = {**params, "cursor": params["cursor"][2:]}
    result = real(method, params)
    value = result.get("value") if isinstance(result, dict) else None
    if isinstance(value, dict) and isinstance(value.get("cursor"), str):
        result = {**result, "value": {**value, "cursor": "t:" + value["cursor"]}}
    return result


def test_cursors_are_opaque_the_pages_are_compared(reference_url: str, built_cases: list) -> None:
    result = _run(Variant("own-cursors", "differential", "differential.cases", dispatch=_own_cursors),
                  reference_url, built_cases)
    assert _differential(result) == []


def test_without_a_reference_there_is_nothing_to_compare(built_cases: list) -> None:
    result = _run(None, None, built_cases)
    assert {c.check_id: c.status for c in result.checks} == {i: Status.NOT_APPLICABLE for i in ONLY}
    assert all("--scenario" in (c.skip_reason or "") for c in result.checks)


def test_a_target_behind_the_scenario_is_a_precondition_unmet(reference_url: str, built_cases: list) -> None:
    result = _run(variants.SLOT_BEHIND, reference_url, built_cases)
    assert "indexed up to slot 1, but scenario default ends at slot" in (result.precondition or "")
    assert result.exit_code() == 3 and _differential(result) == []


def test_a_target_ahead_of_the_scenario_is_noted(reference_url: str, built_cases: list) -> None:
    ahead = Variant("slot-ahead", "health", "health.slot",
                    dispatch=_on("getIndexerSlot", lambda params, slot: slot + 5))
    result = _run(ahead, reference_url, built_cases)
    assert any("past the scenario's last slot" in note for note in result.notes)
    assert _differential(result) == []


def _hashes_required(real: Dispatch, method: str, params: Any) -> Any:
    if method == "getValidityProof" and isinstance(params, dict) and not params.get("hashes"):
        raise RpcError(INVALID_PARAMS, "missing field `hashes`")
    return real(method, params)


def test_a_tagged_case_records_the_reading_and_never_fails_on_it(reference_url: str) -> None:
    tagged = [c for c in scenario_cases("default") if c.ambiguity == "validity-hashes-required"]
    assert tagged, "the bundled cases exercise the point"
    variant = Variant("hashes-required", "differential", "differential.cases", dispatch=_hashes_required)
    result = _run(variant, reference_url, tagged)
    observed = {o.ambiguity: o.readings for o in result.observations}
    assert observed["validity-hashes-required"] == ("required",)
    found = _differential(result)
    assert found and all(f.basis is Basis.AMBIGUITY and f.status is Status.AMBIGUOUS for f in found)
    assert {o.ambiguity: o.readings for o in _run(None, reference_url, tagged).observations if o.answers} == {
        "validity-hashes-required": ("optional",)}
