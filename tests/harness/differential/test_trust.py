"""The scenario differential's verdicts can be trusted: a wrong answer is filed where it belongs,
every successful proof is compared (compressedProof aside), a reading never hides a value, and a
narrowing dropped after the first page is seen."""

from __future__ import annotations

import contextlib
from typing import Any

import csi_conformance.harness.checks  # noqa: F401  (registers the catalogue)
import pytest
from csi_conformance.harness.checks.differential.requests import generated_params
from csi_conformance.harness.connection import Target
from csi_conformance.harness.context import CheckContext, RunFacts
from csi_conformance.harness.core.model import Basis, RunResult, Status
from csi_conformance.harness.core.profile import PROFILES
from csi_conformance.harness.discover import discover
from csi_conformance.harness.engine.runner import run
from csi_conformance.harness.report.json_report import to_json
from csi_conformance.harness.report.junit import finding_text
from csi_conformance.reference_server.options import ServerOptions
from csi_conformance.schema import Contract

from ..broken import Variant, _on, serving
from ..run_args import run_args
from ..variants_differential import NARROWING, VARIANTS, counter, dropped_after_first_page

DIFFERENTIAL = ["differential.cases", "differential.generated"]
GOLDEN_WRONG = next(v for v in VARIANTS if v.name == "golden-balance-wrong")
PROOF_ROOT_WRONG = next(v for v in VARIANTS if v.name == "proof-root-wrong")


def _run(variant: Variant | None, only: list[str], options: ServerOptions | None = None, **config: Any) -> RunResult:
    """`variant` (over `options`) as the target, a clean reference over `default` to compare with."""
    with contextlib.ExitStack() as stack:
        target = stack.enter_context(Target(stack.enter_context(serving(variant, options))))
        reference = stack.enter_context(Target(stack.enter_context(serving(None))))
        return run(target, *run_args(profile=PROFILES["spec"], only=only, scenario="default", **config),
                   reference=reference)


def _check(result: RunResult, check_id: str):
    return next(c for c in result.checks if c.check_id == check_id)


def _proof_findings(result: RunResult) -> list:
    return [f for f in result.findings if f.check_id.startswith("differential.") and f.method == "getValidityProof"]


# -- #12: a golden difference is the differential's, not an answer check's ----------------------
def test_a_wrong_golden_answer_is_filed_under_differential_cases() -> None:
    """The envelope answer checks run on every replayed answer; the case's difference must still be
    differential.cases's finding, in the result and in report.json."""
    result = _run(GOLDEN_WRONG, ["differential.cases", "envelope"])
    cases = _check(result, "differential.cases")
    assert cases.status is Status.FAIL and cases.examined["cases"] > 200
    wrong = [f for f in cases.findings if f.method == "getCompressedBalanceByOwner"]
    assert wrong and counter() in str(wrong[0].request)
    assert [f.check_id for f in result.findings if f.check_id.startswith("envelope.") and f.status is Status.FAIL] == []
    report = to_json(result)
    filed = {(f["check_id"], f["method"]) for f in report["findings"] if f["status"] == "FAIL"}
    assert filed == {("differential.cases", "getCompressedBalanceByOwner")}
    assert next(c for c in report["checks"] if c["id"] == "differential.cases")["status"] == "FAIL"


# -- #12: every successful proof, compared exactly but for compressedProof ---------------------
def test_a_wrong_root_in_a_proof_of_several_accounts_is_a_fail_of_cases_and_generated() -> None:
    result = _run(PROOF_ROOT_WRONG, DIFFERENTIAL)
    found = _proof_findings(result)
    assert {f.check_id for f in found if f.status is Status.FAIL} == set(DIFFERENTIAL)
    assert all("roots[" in finding_text(f) for f in found)
    failed_cases = {f.request["id"] for f in found if f.check_id == "differential.cases"}
    assert "getValidityProof/limit-hashes-2" in failed_cases or any(
        e["request"]["id"] == "getValidityProof/limit-hashes-2" for f in found for e in f.examples)


def test_a_null_compressed_proof_is_no_difference() -> None:
    """§2.10 allows a null proof (the crypto family says it is unverified): roots, leaves and the
    rest still match, so the differential has nothing to report."""
    def null_proof(params: Any, result: Any) -> Any:
        result["value"]["compressedProof"] = None
        return result

    nulled = Variant("null-proof", "differential", "differential.generated",
                     dispatch=_on("getValidityProof", null_proof))
    result = _run(nulled, DIFFERENTIAL)
    assert _proof_findings(result) == []
    assert all(_check(result, i).status is Status.PASS for i in DIFFERENTIAL)


def test_generated_proofs_cover_every_accepted_count(contract: Contract) -> None:
    with serving(None) as url, Target(url) as target, Target(url) as reference:
        ctx = CheckContext(RunFacts(contract=contract, profile=PROFILES["spec"], scenario="default"), target,
                           lambda c, a: None, reference=reference)
        discover(ctx)
        method = contract.method("getValidityProof")
        requests = generated_params(ctx, method)
        live = set(ctx.keys["hashes"])
    shapes = {(len(r.get("hashes", [])), len(r.get("newAddressesWithTrees", []))) for r in requests}
    assert {h for h, a in shapes if a == 0} == set(method.limit_for("hashes").counts)
    assert {a for h, a in shapes if a} == set(method.limit_for("newAddressesWithTrees").counts)
    assert {h for h, a in shapes if a} == {n for n in method.limit_for("hashes").counts
                                           if n <= method.observed["combined_max"]["hashes"]}
    assert all(set(r["hashes"]) <= live for r in requests)


# -- #12: a reading never hides a value ------------------------------------------------------
SPEC_2_10 = ServerOptions(proof_form="spec-2.10")


def _first_root_off(params: Any, result: Any) -> Any:
    result["value"]["roots"][0] += 1
    return result


def _tree_infos_unnamed(params: Any, result: Any) -> Any:
    value = result["value"]
    value["treeInfos"] = [{"merkle": info["tree"]} for info in value["treeInfos"]]
    return result


def test_the_spec_2_10_form_is_compared_value_for_value() -> None:
    """Integer roots and leaves, treeInfos: once brought to the wire reading they equal the reference's."""
    result = _run(None, ["differential.generated"], SPEC_2_10)
    assert _proof_findings(result) == []
    assert "getValidityProof" in _check(result, "differential.generated").examined_methods


def test_a_wrong_root_in_the_spec_2_10_form_is_a_fail() -> None:
    wrong = Variant("spec-2.10-root", "differential", "differential.generated",
                    dispatch=_on("getValidityProof", _first_root_off))
    found = _proof_findings(_run(wrong, ["differential.generated"], SPEC_2_10))
    assert found and all(f.status is Status.FAIL and f.basis is Basis.SPEC for f in found)
    assert "result.value.roots[0]" in finding_text(found[0])


def test_what_no_normalizer_reads_rests_on_the_ambiguity_and_the_rest_still_fails() -> None:
    """treeInfos without a `tree` member cannot be read as merkleTrees: the trees are AMBIGUOUS, and a
    wrong root beside them is still a FAIL."""
    unnamed = Variant("unnamed-tree-infos", "differential", "differential.generated",
                      dispatch=_on("getValidityProof", _tree_infos_unnamed))
    found = _proof_findings(_run(unnamed, ["differential.generated"], SPEC_2_10))
    assert found and all(f.status is Status.AMBIGUOUS and f.basis is Basis.AMBIGUITY for f in found)
    assert "validity-proof-fields" in finding_text(found[0]) and "roots" not in finding_text(found[0])

    def both(params: Any, result: Any) -> Any:
        return _first_root_off(params, _tree_infos_unnamed(params, result))

    found = _proof_findings(_run(Variant("unnamed-and-root", "differential", "differential.generated",
                                         dispatch=_on("getValidityProof", both)), ["differential.generated"],
                                 SPEC_2_10))
    assert {f.status for f in found} == {Status.FAIL, Status.AMBIGUOUS}
    fail = next(f for f in found if f.status is Status.FAIL)
    assert "roots[0]" in finding_text(fail) and "merkleTrees" not in finding_text(fail)


# -- #12: narrowing dropped after the first page ------------------------------------------------
@pytest.mark.parametrize("member", NARROWING)
def test_a_narrowing_dropped_after_the_first_page_is_caught(member: str) -> None:
    variant = Variant(f"{member}-first-page-only", "differential", "differential.generated",
                      dispatch=dropped_after_first_page(member))
    result = _run(variant, DIFFERENTIAL)
    for check_id in DIFFERENTIAL:
        found = [f for f in _check(result, check_id).findings if f.status is Status.FAIL]
        assert found, f"{check_id} missed {member} dropped after the first page"
        assert all(member in str(f.request) or any(member in str(e["request"]) for e in f.examples) for f in found)
