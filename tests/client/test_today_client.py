"""Today's official client as it is published, against `csi serve` on 127.0.0.1 over the default scenario:
@lightprotocol/stateless.js 0.23.3 created with `createRpc(url, url, url)` and nothing overridden (its default
API, V2). Every read call an app makes succeeds: the client's own superstruct validation and parsing accept each
answer, and the values it reads back are the reference's.

What each call is asserted to read (besides succeeding and sending only methods the served contract lists,
none answered with an error):
- getCompressedAccountsByOwner(owner): the owner's live accounts (hashes, lamports, leaf indices), each with the
  tree and queue of its merkle context and `proveByIndex` false (every default-scenario tree is a v1 tree);
- getCompressedAccount by hash and by address, getMultipleCompressedAccounts: the same accounts by hash;
- getCompressedBalance, getCompressedBalanceByOwner: the lamports the reference sums;
- getCompressedTokenAccountsByOwner / ByDelegate: the token accounts' hashes, mints, owners, amounts (> 2^53);
- getCompressedTokenBalancesByOwnerV2, getCompressedTokenAccountBalance, getCompressedMintTokenHolders: balances;
- getCompressionSignaturesForOwner / ForAddress / ForAccount / ForTokenOwner, getLatestCompressionSignatures:
  the signatures in the reference's order;
- getTransactionWithCompressionInfo: opened and closed account hashes and token amounts;
- getValidityProof for hashes, for a new address, and both: roots, leaves, root indices, trees and queues, with a
  proof present; getMultipleNewAddressProofs: low-element roots and 26 siblings in amt1;
- getCompressedAccountProof, getMultipleCompressedAccountProofs: leaf indices, the root and 26 siblings;
- getIndexerHealth, getIndexerSlot: "ok" and the indexed slot.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from typing import Any

import pytest
from csi_conformance.groundwork.base58 import b58encode
from csi_conformance.groundwork.jsonio import dumps, loads
from csi_conformance.reference_server.methods import call
from csi_conformance.reference_server.options import ServerOptions
from csi_conformance.reference_server.scenario import Scenario, open_scenario
from csi_conformance.reference_server.wiring import SERVED_API
from csi_conformance.schema import Contract

from tests.client.support import HERE, install, serving, today_inputs, tool
from tests.reference_server.support import HANG_GUARD

CONTRACT = Contract.for_api(SERVED_API)


@pytest.fixture(scope="module")
def served() -> Iterator[str]:
    """`csi serve --prover light` with no `--api`: what a user runs."""
    with serving() as url:
        yield url


@pytest.fixture(scope="module")
def scenario() -> Scenario:
    return open_scenario("default")


@pytest.fixture(scope="module")
def inputs() -> dict[str, Any]:
    return today_inputs()


@pytest.fixture(scope="module")
def results(served: str, inputs: dict[str, Any]) -> dict[str, dict[str, Any]]:
    install()
    plan = dumps({"url": served, "inputs": inputs})
    done = subprocess.run([tool("node"), str(HERE / "drive_today.mjs")], input=plan, cwd=HERE, capture_output=True,
                          text=True, timeout=5 * HANG_GUARD)
    assert done.returncode == 0, done.stderr[-4000:]
    lines = [loads(line) for line in done.stdout.splitlines() if line.strip()]
    return {line["call"]: line for line in lines}


def _ask(s: Scenario, method: str, params: Any) -> Any:
    result = call(s.ledger, method, params, ServerOptions(), CONTRACT)
    return result["value"] if CONTRACT.method(method).state else result


CALLS = [
    "getCompressedAccountsByOwner(owner)", "getCompressedAccount(undefined, hash)", "getCompressedAccount(address)",
    "getMultipleCompressedAccounts(hashes)", "getCompressedBalance(undefined, hash)",
    "getCompressedBalanceByOwner(owner)", "getCompressedTokenAccountsByOwner(owner)",
    "getCompressedTokenAccountsByDelegate(delegate)", "getCompressedTokenBalancesByOwnerV2(owner)",
    "getCompressedTokenAccountBalance(hash)", "getCompressionSignaturesForOwner(owner)",
    "getCompressionSignaturesForAddress(address)", "getCompressionSignaturesForAccount(hash)",
    "getCompressionSignaturesForTokenOwner(owner)", "getLatestCompressionSignatures()",
    "getTransactionWithCompressionInfo(signature)", "getValidityProof(hashes)", "getValidityProof([], addresses)",
    "getValidityProof(hashes, addresses)", "getMultipleNewAddressProofs(addresses)", "getCompressedAccountProof(hash)",
    "getMultipleCompressedAccountProofs(hashes)", "getCompressedMintTokenHolders(mint)", "getIndexerHealth()",
    "getIndexerSlot()",
]
"""The client's calls the driver makes, in its order (drive_today.mjs)."""


def test_every_read_call_succeeds_and_parses(results: dict[str, dict[str, Any]]) -> None:
    assert list(results) == CALLS
    refused = {name: r["error"] for name, r in results.items() if not r["ok"]}
    assert refused == {}


def test_only_served_methods_are_sent_and_none_fails(results: dict[str, dict[str, Any]]) -> None:
    sent = [s for r in results.values() for s in r["sent"]]
    assert {s["method"] for s in sent} <= set(CONTRACT.methods)
    assert [s for s in sent if s["code"] is not None] == []
    v2 = {s["method"] for s in sent if s["method"].endswith("V2")}
    assert v2 == {"getCompressedAccountsByOwnerV2", "getCompressedAccountV2", "getMultipleCompressedAccountsV2",
                  "getCompressedTokenAccountsByOwnerV2", "getCompressedTokenAccountsByDelegateV2",
                  "getCompressedTokenBalancesByOwnerV2", "getTransactionWithCompressionInfoV2",
                  "getValidityProofV2", "getCompressedAccountProofV2", "getMultipleCompressedAccountProofsV2"}


def _parsed(results: dict[str, dict[str, Any]], name: str) -> dict[str, Any]:
    return results[name]["parsed"]


def test_accounts_read_back(results: dict[str, dict[str, Any]], scenario: Scenario, inputs: dict[str, Any]) -> None:
    owned = _ask(scenario, "getCompressedAccountsByOwnerV2", {"owner": inputs["owner"]})["items"]
    parsed = _parsed(results, "getCompressedAccountsByOwner(owner)")["accounts"]
    assert sorted(a["hash"] for a in parsed) == sorted(a["hash"] for a in owned)
    for read in parsed:
        served = next(a for a in owned if a["hash"] == read["hash"])
        assert (read["lamports"], read["leafIndex"], read["proveByIndex"]) == (
            str(served["lamports"]), served["leafIndex"], served["proveByIndex"])
        assert (read["tree"], read["queue"]) == (served["merkleContext"]["tree"], served["merkleContext"]["queue"])
    by_hash = _parsed(results, "getCompressedAccount(undefined, hash)")
    assert by_hash["hash"] == inputs["hashes"][0]
    assert _parsed(results, "getCompressedAccount(address)")["hash"] == _ask(
        scenario, "getCompressedAccountV2", {"address": inputs["address"]})["hash"]
    multiple = _parsed(results, "getMultipleCompressedAccounts(hashes)")["accounts"]
    assert [a["hash"] for a in multiple] == inputs["hashes"]
    assert _parsed(results, "getCompressedBalance(undefined, hash)")["value"] == str(
        _ask(scenario, "getCompressedBalance", {"hash": inputs["hashes"][0]}))
    assert _parsed(results, "getCompressedBalanceByOwner(owner)")["value"] == str(
        _ask(scenario, "getCompressedBalanceByOwner", {"owner": inputs["owner"]}))


def test_tokens_read_back(results: dict[str, dict[str, Any]], scenario: Scenario, inputs: dict[str, Any]) -> None:
    for name, params, method in (
            ("getCompressedTokenAccountsByOwner(owner)", {"owner": inputs["tokenOwner"]},
             "getCompressedTokenAccountsByOwnerV2"),
            ("getCompressedTokenAccountsByDelegate(delegate)", {"delegate": inputs["delegate"]},
             "getCompressedTokenAccountsByDelegateV2")):
        served = {i["account"]["hash"]: i["tokenData"] for i in _ask(scenario, method, params)["items"]}
        read = {a["hash"]: (a["mint"], a["owner"], a["amount"]) for a in _parsed(results, name)["accounts"]}
        assert read == {h: (t["mint"], t["owner"], str(t["amount"])) for h, t in served.items()}, name
    balances = _ask(scenario, "getCompressedTokenBalancesByOwnerV2", {"owner": inputs["tokenOwner"]})["items"]
    assert _parsed(results, "getCompressedTokenBalancesByOwnerV2(owner)")["balances"] == [
        {"mint": b["mint"], "balance": str(b["balance"])} for b in balances]
    assert _parsed(results, "getCompressedTokenAccountBalance(hash)") == {"amount": "9007199254740993"}
    holders = _ask(scenario, "getCompressedMintTokenHolders", {"mint": inputs["mint"]})["items"]
    assert holders and _parsed(results, "getCompressedMintTokenHolders(mint)")["holders"] == [
        {"owner": h["owner"], "balance": str(h["balance"])} for h in holders]


def test_signatures_and_transaction_read_back(results: dict[str, dict[str, Any]], scenario: Scenario,
                                              inputs: dict[str, Any]) -> None:
    for name, method, params in (
            ("getCompressionSignaturesForOwner(owner)", "getCompressionSignaturesForOwner", {"owner": inputs["owner"]}),
            ("getCompressionSignaturesForAddress(address)", "getCompressionSignaturesForAddress",
             {"address": inputs["address"]}),
            ("getCompressionSignaturesForAccount(hash)", "getCompressionSignaturesForAccount",
             {"hash": inputs["hashes"][0]}),
            ("getCompressionSignaturesForTokenOwner(owner)", "getCompressionSignaturesForTokenOwner",
             {"owner": inputs["tokenOwner"]}),
            ("getLatestCompressionSignatures()", "getLatestCompressionSignatures", {})):
        expected = [i["signature"] for i in _ask(scenario, method, params)["items"]]
        assert expected and _parsed(results, name)["signatures"] == expected, name
    info = _ask(scenario, "getTransactionWithCompressionInfoV2", {"signature": inputs["signature"]})["compressionInfo"]
    parsed = _parsed(results, "getTransactionWithCompressionInfo(signature)")
    for side, key in (("opened", "openedAccounts"), ("closed", "closedAccounts")):
        hashes = [i["account"]["account"]["hash"] if side == "closed" else i["account"]["hash"] for i in info[key]]
        assert [a["hash"] for a in parsed[side]] == hashes and hashes, side


def test_proofs_read_back(results: dict[str, dict[str, Any]], scenario: Scenario, inputs: dict[str, Any]) -> None:
    fresh = inputs["freshAddresses"][0]
    amt1 = b58encode(scenario.ledger.address_tree_key)
    for name, hashes, addresses in (("getValidityProof(hashes)", inputs["hashes"], []),
                                    ("getValidityProof([], addresses)", [], [fresh]),
                                    ("getValidityProof(hashes, addresses)", inputs["hashes"][:1], [fresh])):
        served = _ask(scenario, "getValidityProofV2", {
            "hashes": hashes, "newAddressesWithTrees": [{"address": a, "tree": amt1} for a in addresses]})
        elements = served["accounts"] + served["addresses"]
        read = _parsed(results, name)
        assert read["hasProof"] and read["leaves"] == hashes + addresses, name
        assert read["roots"] == [e["root"] for e in elements], name
        assert read["rootIndices"] == [e["rootIndex"]["rootIndex"] for e in served["accounts"]] + [
            e["rootIndex"] for e in served["addresses"]], name
        assert read["trees"] == [e["merkleContext"]["tree"] for e in elements], name
        assert read["queues"] == [e["merkleContext"]["queue"] for e in elements], name
        assert read["proveByIndices"] == [False] * len(elements), name
    new = _parsed(results, "getMultipleNewAddressProofs(addresses)")["proofs"]
    assert [(p["tree"], p["siblings"]) for p in new] == [(amt1, 26)] * 2
    proof = _parsed(results, "getCompressedAccountProof(hash)")
    served = _ask(scenario, "getCompressedAccountProofV2", {"hash": inputs["hashes"][0]})
    assert (proof["hash"], proof["root"], proof["leafIndex"], proof["siblings"], proof["proveByIndex"]) == (
        served["hash"], served["root"], served["leafIndex"], 26, False)
    assert [p["hash"] for p in _parsed(results, "getMultipleCompressedAccountProofs(hashes)")["proofs"]] == \
        inputs["hashes"]


def test_indexer_calls_read_back(results: dict[str, dict[str, Any]], scenario: Scenario) -> None:
    assert _parsed(results, "getIndexerHealth()") == {"value": "ok"}
    assert _parsed(results, "getIndexerSlot()") == {"value": scenario.ledger.indexed_slot}
