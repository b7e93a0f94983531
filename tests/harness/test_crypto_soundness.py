"""Crypto, limits and health checks on targets that are right but unusual, moving or stale.

None of these servers is wrong where the spec or the ledger speaks: none of these checks may FAIL
them, and each check must still examine something (a check that skipped everything would also
have no FAIL). Where the spec leaves a point open, the check records the reading (AMBIGUOUS);
where the kit cannot know (is the target stale?), it says so (UNVERIFIED).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import csi_conformance.harness.checks  # noqa: F401  (registers the catalogue)
from csi_conformance.harness.connection import Target
from csi_conformance.harness.context import RunFacts
from csi_conformance.harness.core.model import Basis, RunResult, Status
from csi_conformance.harness.core.profile import PROFILES
from csi_conformance.harness.core.registry import REGISTRY
from csi_conformance.harness.engine.runner import RunConfig, run
from csi_conformance.harness.report.junit import finding_text
from csi_conformance.reference_server.app import create_app
from csi_conformance.reference_server.errors import INVALID_PARAMS, SERVER_ERROR, RpcError
from csi_conformance.reference_server.ledger import Ledger
from csi_conformance.reference_server.methods import call
from csi_conformance.reference_server.options import ServerOptions
from csi_conformance.reference_server.scenario import load_scenario
from csi_conformance.reference_server.serve import running_server
from csi_conformance.schema import Contract

from .broken import Dispatch, _ledger

SCENARIOS = Path(__file__).resolve().parents[2] / "reference_server" / "scenarios"
OTHER_ADDRESS_TREE = "amt2kaJA14v3urZbZvnc5v2np8jqvc4Z8zDep5wbtzx"
OURS = ("crypto", "limits", "health")
NOT_OURS = ["crypto.groth16-proof"]
"""Verifies proofs with the real prover's keys (tests/harness/test_proof_check.py); these servers have none."""


@contextlib.contextmanager
def _serving(ledger: Ledger, wrap: Callable[[Dispatch, str, Any], Any] | None = None,
             options: ServerOptions | None = None) -> Iterator[str]:
    options = options or ServerOptions()
    contract = Contract.default()

    def real(method: str, params: Any) -> Any:
        return call(ledger, method, params, options, contract)

    dispatch = real if wrap is None else (lambda method, params: wrap(real, method, params))
    with running_server(create_app(dispatch, options, contract=contract)) as url:
        yield url


def _run(ledger: Ledger, only: list[str], wrap=None, options: ServerOptions | None = None) -> RunResult:
    with _serving(ledger, wrap, options) as url, Target(url) as target:
        return run(target, RunFacts(profile=PROFILES["spec"]), RunConfig(only=only, skip=NOT_OURS))


def _fails(result: RunResult) -> list[tuple]:
    return [(f.check_id, f.title, finding_text(f)[:300]) for f in result.findings if f.status is Status.FAIL]


def _by_id(result: RunResult) -> dict:
    return {check.check_id: check for check in result.checks}


def test_another_address_tree_is_used_not_failed(tmp_path: Path) -> None:
    """A correct server whose address tree is not the observed default one: the checks create and
    prove addresses in the tree the target names (getMultipleNewAddressProofs' `merkleTree`)."""
    text = (SCENARIOS / "default.yaml").read_text(encoding="utf-8")
    scenario = tmp_path / "other-tree.yaml"
    scenario.write_text(text.replace("address_tree: amt1Ayt45jfbdw5YSo7iz6WZxUmnZsQTYXy82hVwyC2",
                                     f"address_tree: {OTHER_ADDRESS_TREE}"), encoding="utf-8")
    ledger = load_scenario(str(scenario))
    result = _run(ledger, ["limits.validity-addresses", "crypto.validity-proof", "crypto.new-address-proof"])
    assert _fails(result) == []
    checks = _by_id(result)
    assert {i: c.status for i, c in checks.items()} == {i: Status.PASS for i in checks}
    assert checks["limits.validity-addresses"].examined["counts"] == 4  # 1 and 2 addresses, alone and beside a hash
    assert checks["crypto.validity-proof"].examined["proofs"] >= 8


def _empty_list_refused(real: Dispatch, method: str, params: Any) -> Any:
    if method == "getValidityProof" and isinstance(params, dict) and params.get("newAddressesWithTrees") == []:
        raise RpcError(INVALID_PARAMS, "Invalid params: newAddressesWithTrees must hold 1 or 2 entries")
    return real(method, params)


def test_an_empty_address_list_refused_is_a_reading_not_a_failure() -> None:
    """§4.3 rule 2 counts 1 or 2 entries, the table marks the list optional: refusing `[]` is one
    reading of ambiguity empty-address-list, reported AMBIGUOUS, never FAIL."""
    result = _run(_ledger(), ["limits.validity-addresses"], _empty_list_refused)
    check = _by_id(result)["limits.validity-addresses"]
    assert [(f.title, f.basis, f.status) for f in check.findings] == [
        ("Empty address list read otherwise", Basis.AMBIGUITY, Status.AMBIGUOUS)]
    assert {o.ambiguity: o.readings for o in result.observations}["empty-address-list"] == ("refused",)


def test_the_observed_empty_list_reading_is_recorded_without_a_finding() -> None:
    result = _run(_ledger(), ["limits.validity-addresses"])
    assert _by_id(result)["limits.validity-addresses"].status is Status.PASS
    assert {o.ambiguity: o.readings for o in result.observations}["empty-address-list"] == ("same-as-absent",)


def _hashes_required(real: Dispatch, method: str, params: Any) -> Any:
    if method == "getValidityProof" and isinstance(params, dict) and not params.get("hashes"):
        raise RpcError(INVALID_PARAMS, "missing field `hashes`")
    return real(method, params)


def test_new_addresses_with_hashes_required_are_not_failed() -> None:
    """A target reading `hashes` as required (ambiguity validity-hashes-required) proves new
    addresses beside a hash: their counts are accepted, not refused."""
    result = _run(_ledger(), ["limits.validity-addresses", "crypto.validity-proof"], _hashes_required)
    assert _fails(result) == []
    checks = _by_id(result)
    assert checks["limits.validity-addresses"].examined["counts"] == 2
    assert checks["crypto.validity-proof"].status is Status.PASS
    assert {o.ambiguity: o.readings for o in result.observations}["validity-hashes-required"] == ("required",)


class _ConsumesOnFirstProof:
    """A correct live indexer: the first account asked a validity proof for is consumed right then
    (after discovery); from then on every method agrees it is gone."""

    def __init__(self) -> None:
        self.gone: str | None = None

    def __call__(self, real: Dispatch, method: str, params: Any) -> Any:
        if method == "getValidityProof" and self.gone is None and (params or {}).get("hashes"):
            self.gone = params["hashes"][0]
        if self.gone and isinstance(params, dict):
            if method == "getValidityProof" and self.gone in (params.get("hashes") or []):
                raise RpcError(SERVER_ERROR, f"Record Not Found: account {self.gone} has been consumed")
            if method == "getCompressedAccount" and params.get("hash") == self.gone:
                return {**real(method, params), "value": None}
        return real(method, params)


def test_an_account_consumed_after_discovery_is_skipped_not_failed() -> None:
    for only in ("limits.validity-hashes", "crypto.validity-proof"):
        result = _run(_ledger(), [only], _ConsumesOnFirstProof())
        assert _fails(result) == [], only
        check = _by_id(result)[only]
        assert any("consumed since discovery" in reason or "no longer live" in reason for reason in check.skipped), (
            only, check.skipped)
        assert check.examined_total > 0, only


def test_the_spec_form_answer_is_read_and_its_values_compared() -> None:
    """§2.10's form (integer roots and leaves, treeInfos) is normalised: a correct server in that
    reading passes with every proof examined (a wrong one fails: variant validity-spec-form-other-trees)."""
    result = _run(_ledger(), ["crypto.validity-proof"], options=ServerOptions(proof_form="spec-2.10"))
    check = _by_id(result)["crypto.validity-proof"]
    assert check.status is Status.PASS and check.examined["proofs"] >= 8


def _always_stale(real: Dispatch, method: str, params: Any) -> Any:
    if method == "getIndexerHealth":
        raise RpcError(SERVER_ERROR, "Node is behind 500 slots")
    return real(method, params)


def test_a_health_error_is_unverified_not_a_pass() -> None:
    """The kit cannot see the chain tip: an error from getIndexerHealth is the target saying it is
    stale, which the kit can neither confirm nor refute. Not a PASS (7-C3 was not established)."""
    result = _run(_ledger(), ["health.ok"], _always_stale)
    check = _by_id(result)["health.ok"]
    assert check.status is Status.UNVERIFIED
    assert [f.title for f in check.findings] == ["Target says it is stale"]
    assert "Node is behind 500 slots" in finding_text(check.findings[0])
    assert result.exit_code() == 0


def test_a_stale_scenario_is_not_failed() -> None:
    """`csi serve --scenario stale` is right to answer getIndexerHealth with an error (7-C3)."""
    result = _run(load_scenario("stale"), list(OURS))
    assert _fails(result) == []
    assert _by_id(result)["health.ok"].status is Status.UNVERIFIED


def _slot_one(real: Dispatch, method: str, params: Any) -> Any:
    return 1 if method == "getIndexerSlot" else real(method, params)


def test_an_indexer_slot_below_context_slots_rests_on_observed_practice() -> None:
    """The spec does not relate getIndexerSlot to earlier context slots: INFO, like context.slot
    going backwards (consistency.context-slot), not a spec FAIL."""
    result = _run(_ledger(), ["health.slot"], _slot_one)
    findings = _by_id(result)["health.slot"].findings
    assert [(f.title, f.basis, f.status) for f in findings] == [
        ("Indexer slot behind answers", Basis.OBSERVED, Status.INFO)]


def test_crypto_checks_rest_on_the_ledger_and_cite_its_clauses() -> None:
    ledger_checks = {"crypto.account-hash", "crypto.value-ranges", "crypto.token-data-hash", "crypto.token-data-bytes",
                     "crypto.new-address-proof", "crypto.validity-proof", "crypto.proof-points"}
    for check_id in ledger_checks:
        spec = REGISTRY.get(check_id)
        assert spec.basis is Basis.LEDGER, check_id
        assert any(clause.startswith("ledger-") for clause in spec.clauses), check_id
        assert "2.10-R2" not in spec.clauses, check_id  # "inner structure not shown" is no basis for a rule
    assert REGISTRY.get("crypto.address-taken").basis is Basis.SPEC  # 4.2-M16: each proof proves the address free
