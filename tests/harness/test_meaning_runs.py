"""Whole runs on loopback for what the differential must not FAIL, and for a method the target does not serve.

A target with its own prover (every proof's bytes differ, all else right), one naming its trees' CPI context
accounts, and one serving an integer `seq` for batched accounts are each right under the default profile: no
check of the run FAILs them. A method answered "Method not found" is one FAIL-level finding on that method,
and the checks that need it are N/A saying so.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from csi_conformance.harness.core.model import Status
from csi_conformance.harness.engine.options import RunOptions
from csi_conformance.harness.engine.session import certify
from csi_conformance.ledger_ingest import LedgerSource
from csi_conformance.reference_server.errors import METHOD_NOT_FOUND, RpcError

from tests.conftest import PROOF_CHECK

from .broken import Dispatch, Variant, _each_node, ledger_folder, serving
from .variants_meaning import NOT_SERVED, not_served
from .variants_today_api import QUEUED_AND_APPENDED, TODAY

CPI = "cpi1uHzrEhBG733DoEJNgHCyRS3XmmyVNZx5fonubE4"


def _rewritten(change: Any) -> Any:
    def dispatch(real: Dispatch, method: str, params: Any) -> Any:
        result = copy.deepcopy(real(method, params))
        return _each_node(result, lambda node: True, change)
    return dispatch


def _own_prover(node: dict) -> None:
    """Another proving of the same statement: other bytes (a Groth16 proof is randomized)."""
    proof = node.get("compressedProof")
    if isinstance(proof, dict) and isinstance(proof.get("a"), list):
        node["compressedProof"] = {**proof, "a": [(byte + 1) % 256 for byte in proof["a"]]}


def _cpi_context(node: dict) -> None:
    if "cpiContext" in node:
        node["cpiContext"] = CPI


def _integer_seq(node: dict) -> None:
    if "seq" in node and node["seq"] is None and "leafIndex" in node:
        node["seq"] = node["leafIndex"]


def _fails(result) -> list[tuple[str, str, str | None]]:
    return [(c.check_id, f.title, f.method) for c in result.checks for f in c.findings if f.status is Status.FAIL]


@pytest.mark.parametrize("change", [_own_prover, _cpi_context], ids=["own-prover", "cpi-context-named"])
def test_right_in_meaning_is_not_failed_by_the_differential(change) -> None:
    variant = Variant(change.__name__, "differential", "differential.generated", dispatch=_rewritten(change),
                      api=TODAY)
    with serving(variant) as url:
        result = certify(RunOptions(target=url, api=TODAY, scenario="default", only=("differential",),
                                    report_dir=None, skip=(PROOF_CHECK,)))
    by_id = {check.check_id: check for check in result.checks}
    assert by_id["differential.generated"].examined.get("requests", 0) > 0
    assert {"getValidityProofV2", "getValidityProof"} <= by_id["differential.generated"].examined_methods
    assert _fails(result) == []


def test_an_integer_seq_for_batched_accounts_is_a_reading_the_profile_accepts() -> None:
    variant = Variant("integer-seq", "differential", "differential.generated", dispatch=_rewritten(_integer_seq),
                      ledger=QUEUED_AND_APPENDED)
    with serving(variant) as url:
        result = certify(RunOptions(target=url, ledger=LedgerSource.files([ledger_folder(QUEUED_AND_APPENDED)]),
                                    only=("differential", "schema"), report_dir=None, skip=(PROOF_CHECK,)))
    assert _fails(result) == []
    assert any(c.check_id == "differential.generated" and c.examined for c in result.checks)


def test_a_method_not_served_is_one_finding_and_its_checks_are_not_applicable() -> None:
    variant = Variant("method-not-served", "health", "health.methods-served", dispatch=not_served)
    with serving(variant) as url:
        result = certify(RunOptions(target=url, report_dir=None, skip=(PROOF_CHECK,)))
    on_method = [fail for fail in _fails(result) if fail[2] == NOT_SERVED]
    assert on_method == [("health.methods-served", "Method not served", NOT_SERVED)]
    by_id = {check.check_id: check for check in result.checks}
    balance = by_id["consistency.account-balance"]
    assert balance.status is Status.NOT_APPLICABLE and "not served" in balance.not_applicable


def test_health_not_served_is_not_read_as_a_stale_target() -> None:
    """getIndexerHealth answered "Method not found": one finding of health.methods-served, and health.ok N/A
    saying so (it read as "Target says it is stale" before)."""

    def health_not_served(real: Dispatch, method: str, params: Any) -> Any:
        if method == "getIndexerHealth":
            raise RpcError(METHOD_NOT_FOUND, f"Method not found: {method!r}")
        return real(method, params)

    variant = Variant("health-not-served", "health", "health.methods-served", dispatch=health_not_served)
    with serving(variant) as url:
        result = certify(RunOptions(target=url, report_dir=None, only=("health",)))
    assert _fails(result) == [("health.methods-served", "Method not served", "getIndexerHealth")]
    health = {check.check_id: check for check in result.checks}["health.ok"]
    assert health.status is Status.NOT_APPLICABLE and "not served" in health.not_applicable
    assert not [f for f in health.findings if f.title == "Target says it is stale"]
