"""Mirror differential: what discovery saw, replayed into a reference, against the target.

The clean reference mirrored into a reference differs in nothing, also when discovery sees only
part of a larger ledger; planted inconsistencies in a served target are found by the mirror
checks, in a plain `csi run --target URL` too.
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import csi_conformance.harness.checks  # noqa: F401  (registers the catalogue)
import pytest
from csi_conformance.groundwork.base58 import b58encode
from csi_conformance.harness.checks.differential.mirror import build_mirror
from csi_conformance.harness.connection import Target
from csi_conformance.harness.context import CheckContext, RunFacts
from csi_conformance.harness.core.keys import Keys
from csi_conformance.harness.core.model import RunResult, Status
from csi_conformance.harness.core.profile import PROFILES
from csi_conformance.harness.discover import discover
from csi_conformance.harness.engine.runner import RunConfig, run
from csi_conformance.harness.report.junit import finding_text
from csi_conformance.reference_server.generate import generate_scenario
from csi_conformance.reference_server.scenario import load_scenario, scenario_from_document, validate_document
from csi_conformance.reference_server.wiring import bundled_reference
from csi_conformance.schema import Contract

from .broken import VARIANTS, Variant, serving
from .variants_differential import _closed_listed_live

CSI = Path(sys.executable).with_name("csi")
MIRROR_CHECKS = ("differential.mirror-ledger", "differential.mirror-accounts", "differential.mirror-balance-by-owner",
                 "differential.mirror-token-balances", "differential.mirror-account-lists",
                 "differential.mirror-token-lists", "differential.mirror-delegates", "differential.mirror-signatures")


def _run(url: str) -> RunResult:
    with Target(url) as target:
        return run(target, RunFacts(profile=PROFILES["spec"]), RunConfig(only=["differential"]))


def _mirror_checks(result: RunResult) -> dict[str, Any]:
    return {check.check_id: check for check in result.checks if check.check_id.startswith("differential.mirror-")}


def _discovered(url: str) -> Keys:
    with Target(url) as target:
        ctx = CheckContext(RunFacts(contract=Contract.default(), profile=PROFILES["spec"]), target,
                           lambda ctx, answer: None)
        discover(ctx)
        return ctx.keys


# -- the build ---------------------------------------------------------------------------------
def test_build_holds_everything_discovered_and_maps_each_hash_as_the_ledger_places_it() -> None:
    with serving(None) as url:
        keys = _discovered(url)
    build = build_mirror(keys)
    assert build.contradictions == [] and build.dropped == []
    validate_document(build.document, "<mirror>")
    scenario = scenario_from_document(build.document)
    placed = {label[1:]: b58encode(hash_) for label, hash_ in scenario.labels.items()}
    assert {build.to_target[m] for m in placed.values()} == set(placed), "every mirror hash maps to its label"
    assert all(build.to_target[placed[target]] == target for target in placed)
    assert set(keys.accounts) | set(keys.token_accounts) | set(keys.touched) == set(placed)
    assert build.replayed == set(keys.transactions), "every discovered transaction is replayed whole"
    mirrored = {b58encode(tx.signature): tx for tx in scenario.ledger.transactions.values()}
    for signature, item in keys.signature_items.items():
        assert (mirrored[signature].slot, mirrored[signature].block_time) == (item["slot"], item["blockTime"])
    assert build.owners and build.token_owners


def test_build_invents_openers_and_closers_for_what_discovery_did_not_see() -> None:
    """Keys as if discovery had seen one transaction and whole lists: the rest is invented."""
    with serving(None) as url:
        keys = _discovered(url)
    last = next(iter(keys.transactions))  # newest first
    keys.transactions = {last: keys.transactions[last]}
    keys.touched = {h: seen for h, seen in keys.touched.items() if h in (*keys.transactions[last]["opened"],
                                                                         *keys.transactions[last]["closed"])}
    build = build_mirror(keys)
    ledger = scenario_from_document(build.document).ledger
    invented = [tx for tx in build.document["transactions"] if "blockTime" not in tx]
    assert invented and build.replayed == {last}
    live = {build.to_target[b58encode(a.hash)] for a in ledger.accounts.values() if not a.closed}
    assert live == set(keys.accounts) | set(keys.token_accounts)


def test_build_reports_an_account_listed_live_after_a_transaction_closed_it() -> None:
    with serving(None) as url:
        keys = _discovered(url)
    signature, record = next((s, r) for s, r in keys.transactions.items() if r["closed"])
    closed = keys.touched[record["closed"][0]]["account"]
    keys.accounts[closed["hash"]] = closed
    build = build_mirror(keys)
    assert any("listed live" in line and signature in line for line in build.contradictions)


# -- runs ------------------------------------------------------------------------------------
def test_clean_reference_mirrors_without_a_difference() -> None:
    with serving(None) as url:
        result = _run(url)
    checks = _mirror_checks(result)
    assert set(checks) == set(MIRROR_CHECKS)
    assert {cid: c.status for cid, c in checks.items()} == dict.fromkeys(MIRROR_CHECKS, Status.PASS), [
        (c.check_id, c.skip_reason, [finding_text(f) for f in c.findings]) for c in checks.values()]


def test_partial_discovery_of_a_larger_ledger_differs_in_nothing() -> None:
    """Discovery sees 60 of the transactions and 12 owners: the mirror compares only what it knows whole."""
    document = generate_scenario(accounts=1500, seed=11)
    with bundled_reference(document) as url:
        keys = _discovered(url)
        result = _run(url)
    assert len(document["transactions"]) > len(keys.transactions)
    checks = _mirror_checks(result)
    assert [finding_text(f) for c in checks.values() for f in c.findings] == []
    assert all(c.status is Status.PASS for c in checks.values()), [(c.check_id, c.skip_reason) for c in checks.values()]


PLANTED = [
    (next(v for v in VARIANTS if v.name == "balance-off-by-one"), "differential.mirror-balance-by-owner"),
    (next(v for v in VARIANTS if v.name == "token-balance-wrong"), "differential.mirror-token-balances"),
    (next(v for v in VARIANTS if v.name == "delegate-list-short"), "differential.mirror-delegates"),
    (next(v for v in VARIANTS if v.name == "slot-created-later"), "differential.mirror-accounts"),
    (next(v for v in VARIANTS if v.name == "token-owner-signatures-empty"), "differential.mirror-signatures"),
]


@pytest.mark.parametrize(("variant", "check_id"), PLANTED, ids=[v.name for v, _ in PLANTED])
def test_planted_inconsistency_is_found_by_the_mirror(variant: Variant, check_id: str) -> None:
    with serving(variant) as url:
        result = _run(url)
    caught = _mirror_checks(result)[check_id]
    assert caught.status is Status.FAIL, (caught.status, caught.skip_reason)
    assert "mirror" in finding_text(caught.findings[0])
    if variant.name != "slot-created-later":  # that one shifts every account in every answer
        others = [c.check_id for c in _mirror_checks(result).values() if c.findings and c.check_id != check_id]
        assert others == [], "a fault is reported where it is, not everywhere"




def test_a_closed_account_listed_live_is_a_contradiction() -> None:
    with serving(Variant("closed-listed", "differential", "differential.mirror-ledger",
                         dispatch=_closed_listed_live)) as url:
        result = _run(url)
    ledger = _mirror_checks(result)["differential.mirror-ledger"]
    assert ledger.status is Status.FAIL and "listed live" in finding_text(ledger.findings[0])


def test_a_target_that_moves_is_noted_not_reported() -> None:
    """The counter owner's balance differs, but its list also changed since discovery: a moving
    target, so the mirror notes it and reports nothing about that owner."""
    counter = b58encode(next(a.owner for a in load_scenario("default").accounts.values() if a.lamports == 9000))
    calls = {"lists": 0}

    def moving(real, method: str, params: Any) -> Any:
        result = real(method, params)
        if params and params.get("owner") == counter:
            if method == "getCompressedAccountsByOwner" and params.get("limit") == 100 and not params.get("cursor"):
                calls["lists"] += 1
                if calls["lists"] > 1:
                    result = copy.deepcopy(result)
                    result["value"]["items"] = result["value"]["items"][1:]
            if method == "getCompressedBalanceByOwner":
                result = {**result, "value": result["value"] - 1}
        return result

    with serving(Variant("moving", "differential", "differential.mirror-balance-by-owner", dispatch=moving)) as url:
        result = _run(url)
    balance = _mirror_checks(result)["differential.mirror-balance-by-owner"]
    assert balance.findings == [] and balance.status is Status.PASS
    assert balance.partial and any(counter in text and "moved" in text for text in balance.not_reached)


def test_plain_csi_run_finds_a_planted_inconsistency(tmp_path: Path) -> None:
    """No --scenario: the mirror is the default differential of `csi run --target URL` (narrowed
    to the family here for time; the full default run of the clean reference is test_run_cli's)."""
    variant = next(v for v, _ in PLANTED if v.name == "delegate-list-short")
    with serving(variant) as url:
        done = subprocess.run([str(CSI), "run", "--target", url, "--only", "differential", "--report-dir", "out"],
                              cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 1, done.stdout[-2000:] + done.stderr[-2000:]
    report = json.loads((tmp_path / "out" / "report.json").read_text())
    found = {f["check_id"] for f in report["findings"]}
    assert found == {"differential.mirror-delegates"}
    assert "differential.mirror-delegates" in done.stdout


EXAMINED = {
    "differential.mirror-ledger": {"transactions", "accounts"},
    "differential.mirror-accounts": {"accounts", "hashes", "lookups"},
    "differential.mirror-balance-by-owner": {"balances"},
    "differential.mirror-token-balances": {"balance lists"},
    "differential.mirror-account-lists": {"lists", "accounts"},
    "differential.mirror-token-lists": {"lists", "token accounts"},
    "differential.mirror-delegates": {"lists", "token accounts"},
    "differential.mirror-signatures": {"lists", "signatures"},
}


def test_each_mirror_check_counts_what_it_compared() -> None:
    """PASS means something was compared: each check says what, and how many."""
    with serving(None) as url:
        result = _run(url)
    checks = _mirror_checks(result)
    assert {cid: set(c.examined) for cid, c in checks.items()} == EXAMINED
    assert all(n > 0 for c in checks.values() for n in c.examined.values())
    assert checks["differential.mirror-account-lists"].examined_methods == {"getCompressedAccountsByOwner"}


def test_a_target_that_shows_nothing_gives_the_mirror_nothing_to_compare() -> None:
    """An empty indexer: discovery sees no transaction and no account, so there is nothing to mirror.
    The mirror checks say so (SKIP, examined nothing) rather than PASS on nothing."""
    with bundled_reference("empty") as url:
        result = _run(url)
    checks = _mirror_checks(result)
    assert {cid: c.status for cid, c in checks.items()} == dict.fromkeys(MIRROR_CHECKS, Status.SKIP)
    assert all(c.examined == {} and "no account discovered to mirror" in c.skip_reason for c in checks.values())
