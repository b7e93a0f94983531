"""The official client, @lightprotocol/stateless.js, as an app uses it (nothing overridden), against
`csi serve --api 0.50.0` (the spec's 19 methods only) on 127.0.0.1 over the default scenario: 0.20.9 and
0.23.3 in its V1 mode call every one of the 19 methods, get answers they accept (their own superstruct
validation, then their own types) and read back the values the server sent, for every owner and every
state tree of the ledger. 0.23.3's default, V2, sends methods outside the 19: the test names them. (Plain
`csi serve` serves them too: test_today_client.py.)

Both releases are installed side by side under npm aliases (exact pins in package.json, lock committed).
Node and npm are part of the test environment: without them this test fails, it never skips.
`npm ci` runs only when node_modules is missing or was installed from another lock.
"""

from __future__ import annotations

import hashlib
import subprocess
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from csi_conformance.groundwork.base58 import b58decode, b58encode
from csi_conformance.groundwork.jsonio import dumps, loads
from csi_conformance.ledger_proofs.circuits import circuit_for
from csi_conformance.ledger_proofs.verify import verify_compressed
from csi_conformance.reference_server.export import export_document
from csi_conformance.reference_server.methods import call
from csi_conformance.reference_server.options import ServerOptions
from csi_conformance.reference_server.scenario import Scenario, open_scenario
from csi_conformance.schema import Contract

from tests.client.support import HERE, install, serving, tool
from tests.reference_server.support import HANG_GUARD

METHOD_NOT_FOUND = -32601

RUNS = {"0.20.9": ("0.20.9", None), "0.23.3 V1": ("0.23.3", "V1"), "0.23.3 V2": ("0.23.3", "V2")}
"""Each run: the installed release and the API version it is put in (0.20.9 has only V1, so none is set;
0.23.3 defaults to V2)."""
V1_RUNS = ["0.20.9", "0.23.3 V1"]

_V1_OUTSIDE = ["getCompressedAccountProof", "getCompressedMintTokenHolders", "getCompressedTokenBalancesByOwnerV2",
               "getCompressionSignaturesForAccount", "getMultipleCompressedAccountProofs",
               "getMultipleCompressedAccounts"]
OUTSIDE_THE_19 = {
    "0.20.9": _V1_OUTSIDE,
    "0.23.3 V1": _V1_OUTSIDE,
    "0.23.3 V2": ["getCompressedAccountProofV2", "getCompressedAccountV2", "getCompressedAccountsByOwnerV2",
                  "getCompressedMintTokenHolders", "getCompressedTokenAccountsByDelegateV2",
                  "getCompressedTokenAccountsByOwnerV2", "getCompressedTokenBalancesByOwnerV2",
                  "getCompressionSignaturesForAccount", "getMultipleCompressedAccountProofsV2",
                  "getMultipleCompressedAccountsV2", "getTransactionWithCompressionInfoV2", "getValidityProofV2"],
}
"""By run: the methods the driven calls send that are not among the spec's 19 (the reference answers
"Method not found"). The README lists them; a release that sends another method changes this visibly."""
V2_REPLACED = {"getCompressedAccount", "getCompressedAccountsByOwner", "getCompressedTokenAccountsByOwner",
               "getCompressedTokenAccountsByDelegate", "getTransactionWithCompressionInfo", "getValidityProof"}
"""The methods of the 19 whose calls 0.23.3 in V2 mode makes with a `…V2` method instead."""





@pytest.fixture(scope="module")
def served() -> Iterator[str]:
    """`csi serve --prover light --api 0.50.0`: the default scenario, real proofs, the spec's 19 methods alone."""
    with serving("--api", "0.50.0") as url:
        yield url


@pytest.fixture(scope="module")
def scenario() -> Scenario:
    return open_scenario("default")


def _fresh(n: int) -> str:
    """An address no scenario holds (byte 0 is 0, so it is below 2^248)."""
    return b58encode(b"\0" + hashlib.sha256(f"official-client-{n}".encode()).digest()[1:])


def _named(document: dict[str, Any], keys: set[str]) -> list[dict[str, str]]:
    names = {value: name for name, value in document["keys"].items()}
    return [{"name": names.get(key, key), "key": key} for key in sorted(keys)]


def _inputs(scenario: Scenario) -> dict[str, Any]:
    """The keys each call uses, from the scenario's derived values (what `csi scenario export` gives):
    every owner of an account (and `idle`, who owns none), every owner of a token account."""
    document = export_document(scenario)
    accounts = {a["label"]: a for a in document["accounts"] if a.get("label")}
    by_hash = {a["hash"]: a for a in document["accounts"]}
    moved_tokens = next(t for t in document["transactions"]
                        if t["closed"] and any(by_hash[h]["tokenData"] for h in t["opened"] + t["closed"]))
    return {
        "hash": accounts["c1"]["hash"], "address": accounts["r1"]["address"], "tokenHash": accounts["t1"]["hash"],
        "owner": document["keys"]["counter"], "tokenOwner": document["keys"]["alice"],
        "owners": _named(document, {a["owner"] for a in document["accounts"]} | {document["keys"]["idle"]}),
        "tokenOwners": _named(document, {a["tokenData"]["owner"] for a in document["accounts"] if a["tokenData"]}),
        "delegate": document["keys"]["dave"], "mint": document["keys"]["usdc"], "signature": moved_tokens["signature"],
        "freshAddresses": [_fresh(0), _fresh(1)], "addressTree": document["addressTree"]["pubkey"],
        "proofHashes": [{"hash": accounts[label]["hash"], "tree": accounts[label]["tree"]} for label in ("c1", "c4")],
    }


def _drive(url: str, inputs: dict[str, Any], client: str, version: str | None) -> list[dict[str, Any]]:
    install()
    plan = dumps({"url": url, "inputs": inputs, "client": client, "version": version})
    done = subprocess.run([tool("node"), str(HERE / "drive.mjs")], input=plan, cwd=HERE, capture_output=True,
                          text=True, timeout=5 * HANG_GUARD)
    assert done.returncode == 0, done.stderr[-4000:]
    return [loads(line) for line in done.stdout.splitlines() if line.strip()]


# -- what the client must have read: the same request asked of the reference in-process -----------------

def _ask(s: Scenario, method: str, params: Any) -> Any:
    result = call(s.ledger, method, params, ServerOptions())
    return result["value"] if Contract.default().method(method).state else result


def _account(a: dict) -> dict:
    return {"hash": a["hash"], "lamports": str(a["lamports"]), "leafIndex": a["leafIndex"], "owner": a["owner"],
            "tree": a["tree"], "hasData": a["data"] is not None, "address": a["address"]}


def _token(item: dict) -> dict:
    data = item["tokenData"]
    return {"hash": item["account"]["hash"], "mint": data["mint"], "owner": data["owner"],
            "amount": str(data["amount"]), "delegate": data["delegate"]}


def _by_hash(items: list[dict]) -> list[dict]:
    return sorted(items, key=lambda item: item["hash"])


def _signatures(value: dict) -> dict:
    return {"signatures": [i["signature"] for i in value["items"]], "cursor": value.get("cursor")}


def _proof(value: dict) -> dict:
    return {"sizes": [32, 64, 32], **{k: value[k] for k in ("roots", "leaves", "leafIndices", "rootIndices",
                                                             "merkleTrees")}}


def _side(items: list[dict]) -> list[dict]:
    return _by_hash([{"hash": i["account"]["hash"],
                      "amount": str(i["optionalTokenData"]["amount"]) if i["optionalTokenData"] else None}
                     for i in items])


def _with_trees(inputs: dict, count: int) -> list[dict]:
    return [{"address": a, "tree": inputs["addressTree"]} for a in inputs["freshAddresses"][:count]]


def _owned(s: Scenario, owner: str) -> dict:
    value = _ask(s, "getCompressedAccountsByOwner", {"owner": owner})
    return {"accounts": _by_hash([_account(a) for a in value["items"]]), "cursor": value["cursor"]}


def _tokens(s: Scenario, params: dict) -> dict:
    method = "getCompressedTokenAccountsByDelegate" if "delegate" in params else "getCompressedTokenAccountsByOwner"
    return {"accounts": _by_hash([_token(t) for t in _ask(s, method, params)["items"]])}


Expect = Callable[[Scenario, dict], Any]
EXPECTED: dict[str, Expect] = {
    "Rpc.getCompressedAccount(undefined, hash)": lambda s, i: _account(_ask(s, "getCompressedAccount",
                                                                            {"hash": i["hash"]})),
    "Rpc.getCompressedAccount(address)": lambda s, i: _account(_ask(s, "getCompressedAccount",
                                                                    {"address": i["address"]})),
    "rpcRequest + jsonRpcResultAndContext(NativeBalanceResult)": lambda s, i: {
        "value": str(_ask(s, "getCompressedAccountBalance", {"hash": i["hash"]})), "slot": s.ledger.indexed_slot},
    "Rpc.getCompressedBalance(undefined, hash)": lambda s, i: {
        "value": str(_ask(s, "getCompressedBalance", {"hash": i["hash"]}))},
    "Rpc.getCompressedBalanceByOwner(owner)": lambda s, i: {
        "value": str(_ask(s, "getCompressedBalanceByOwner", {"owner": i["owner"]}))},
    "Rpc.getCompressedAccountsByOwner": lambda s, i: _owned(s, i["key"]),
    "Rpc.getCompressedTokenAccountsByOwner": lambda s, i: _tokens(s, {"owner": i["key"]}),
    "Rpc.getCompressedTokenAccountsByDelegate(delegate)": lambda s, i: _tokens(s, {"delegate": i["delegate"]}),
    "Rpc.getCompressedTokenBalancesByOwner(owner)": lambda s, i: {"balances": [
        {"mint": b["mint"], "balance": str(b["balance"])}
        for b in _ask(s, "getCompressedTokenBalancesByOwner", {"owner": i["tokenOwner"]})["token_balances"]]},
    "Rpc.getCompressedTokenAccountBalance(hash)": lambda s, i: {
        "amount": str(_ask(s, "getCompressedTokenAccountBalance", {"hash": i["tokenHash"]})["amount"])},
    "Rpc.getTransactionWithCompressionInfo(signature)": lambda s, i: (lambda info: {
        "opened": _side(info["openedAccounts"]), "closed": _side(info["closedAccounts"])})(
        _ask(s, "getTransactionWithCompressionInfo", {"signature": i["signature"]})["compressionInfo"]),
    "Rpc.getCompressionSignaturesForAddress(address)": lambda s, i: _signatures(
        _ask(s, "getCompressionSignaturesForAddress", {"address": i["address"]})),
    "Rpc.getCompressionSignaturesForOwner(owner)": lambda s, i: _signatures(
        _ask(s, "getCompressionSignaturesForOwner", {"owner": i["owner"]})),
    "Rpc.getCompressionSignaturesForTokenOwner(owner)": lambda s, i: _signatures(
        _ask(s, "getCompressionSignaturesForTokenOwner", {"owner": i["tokenOwner"]})),
    "Rpc.getLatestCompressionSignatures()": lambda s, i: _signatures(_ask(s, "getLatestCompressionSignatures", {})),
    "Rpc.getLatestNonVotingSignatures()": lambda s, i: (lambda items: {
        "signatures": [x["signature"] for x in items], "failed": [x["signature"] for x in items if x["error"]]})(
        _ask(s, "getLatestNonVotingSignatures", {})["items"]),
    "Rpc.getMultipleNewAddressProofs(addresses)": lambda s, i: {"proofs": [
        {"value": p["address"], "root": p["root"], "rootIndex": p["rootSeq"] % 2400, "tree": p["merkleTree"],
         "siblings": len(p["proof"])} for p in _ask(s, "getMultipleNewAddressProofs", i["freshAddresses"])]},
    "Rpc.getValidityProofV0(hashes, [])": lambda s, i: _proof(_ask(s, "getValidityProof", {
        "hashes": [h["hash"] for h in i["proofHashes"]]})),
    "Rpc.getValidityProofV0([], addresses)": lambda s, i: _proof(_ask(s, "getValidityProof", {
        "newAddressesWithTrees": _with_trees(i, 1)})),
    "Rpc.getValidityProofV0(hashes, addresses)": lambda s, i: _proof(_ask(s, "getValidityProof", {
        "hashes": [i["proofHashes"][0]["hash"]], "newAddressesWithTrees": _with_trees(i, 1)})),
    "Rpc.getIndexerHealth()": lambda s, i: {"value": "ok"},
    "Rpc.getIndexerSlot()": lambda s, i: {"value": s.ledger.indexed_slot},
}
"""By call; a call made once per owner is named `<call>(<owner>)` and its expectation gets that owner."""


def _expected_calls(inputs: dict) -> dict[str, tuple[Expect, dict]]:
    """Every call the driver makes, in its order, with the expectation and the inputs it is judged with."""
    per_owner = {"Rpc.getCompressedAccountsByOwner": inputs["owners"],
                 "Rpc.getCompressedTokenAccountsByOwner": inputs["tokenOwners"]}
    calls: dict[str, tuple[Expect, dict]] = {}
    for name, expect in EXPECTED.items():
        for owner in per_owner.get(name, [None]):
            calls[name if owner is None else f"{name}({owner['name']})"] = (expect, owner or inputs)
    return calls


@pytest.fixture(scope="module")
def inputs(scenario: Scenario) -> dict[str, Any]:
    return _inputs(scenario)


@pytest.fixture(scope="module")
def runs(served: str, inputs: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """Each run's lines, driven once for the whole module."""
    return {name: _drive(served, inputs, *RUNS[name]) for name in RUNS}


@pytest.fixture(params=V1_RUNS)
def results(request: pytest.FixtureRequest, runs: dict[str, list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """The calls of one V1 run that use the 19 methods."""
    return [r for r in runs[request.param] if r["method"] is not None]


def test_every_method_is_driven_through_the_client(results: list[dict[str, Any]], inputs: dict[str, Any]) -> None:
    assert {r["method"] for r in results} == set(Contract.default().methods)
    assert [r["call"] for r in results] == list(_expected_calls(inputs))


def test_every_owner_and_every_state_tree_is_read(results: list[dict[str, Any]], scenario: Scenario) -> None:
    """The client builds each account it reads with the queue of its tree, from its own table of known trees:
    an account of a tree the client does not know fails the whole call. Every owner and tree is read."""
    document = export_document(scenario)
    by_owner = [r for r in results if r["call"].startswith("Rpc.getCompressedAccountsByOwner(")]
    assert len(by_owner) == len({a["owner"] for a in document["accounts"]}) + 1  # and `idle`, who owns nothing
    read = {a["tree"] for r in by_owner if r["ok"] for a in r["parsed"]["accounts"]}
    assert read == {tree["pubkey"] for tree in document["stateTrees"]}


def test_the_client_accepts_every_answer(results: list[dict[str, Any]]) -> None:
    refused = {r["call"]: r["error"] for r in results if not r["ok"]}
    assert refused == {}


def test_the_client_sends_only_the_19_methods(results: list[dict[str, Any]]) -> None:
    sent = {s["method"] for r in results for s in r["sent"]}
    assert sent <= set(Contract.default().methods)


def test_the_client_reads_what_the_server_sent(results: list[dict[str, Any]], scenario: Scenario,
                                               inputs: dict[str, Any]) -> None:
    """Lists whose order the client changes (it sorts accounts by leaf index) are compared by hash."""
    expected = _expected_calls(inputs)
    for result in (r for r in results if r["ok"]):
        parsed = {k: _by_hash(v) if k in ("accounts", "opened", "closed") else v for k, v in result["parsed"].items()
                  if k != "compressedProof"}  # proof bytes differ from prover run to prover run: verified below
        expect, given = expected[result["call"]]
        assert parsed == expect(scenario, given), result["call"]


def test_values_beyond_2_53_arrive_exact(results: list[dict[str, Any]]) -> None:
    """The client turns long JSON integers into strings before parsing; the reference must send them whole."""
    amounts = {r["call"]: r["parsed"] for r in results if r["ok"]}
    assert amounts["Rpc.getCompressedTokenAccountBalance(hash)"] == {"amount": "9007199254740993"}


def test_the_client_gets_real_proofs_that_verify(results: list[dict[str, Any]]) -> None:
    """#13: `getValidityProofV0` through the official client returns a Groth16 proof of the light prover
    that verifies against the published key of its circuit, with the roots and leaves the client parsed."""
    proofs = [r for r in results if r["call"].startswith("Rpc.getValidityProofV0")]
    assert len(proofs) == 3 and all(r["ok"] for r in proofs)
    for result in proofs:
        parsed = result["parsed"]
        accounts = len(parsed["leaves"]) - (0 if "addresses)" not in result["call"] else 1)
        circuit = circuit_for(accounts, len(parsed["leaves"]) - accounts)
        roots, leaves = ([int.from_bytes(b58decode(v, length=32), "big") for v in parsed[key]]
                         for key in ("roots", "leaves"))
        inputs = circuit.order(roots[:accounts], leaves[:accounts], roots[accounts:], leaves[accounts:])
        verdict = verify_compressed(circuit, parsed["compressedProof"], inputs)
        assert verdict.verified, f"{result['call']}: {circuit.name}: {verdict.reason}"


# -- calls outside the 19, and 0.23.3 as it comes: V2 -----------------------------------------------------

@pytest.mark.parametrize("run", list(RUNS))
def test_calls_outside_the_19_are_named(run: str, runs: dict[str, list[dict[str, Any]]]) -> None:
    """What each run sends beyond the spec is answered "Method not found" and is exactly the list the README
    gives; a call that needs such a method fails with that answer."""
    sent = [s for r in runs[run] for s in r["sent"]]
    not_found = sorted({s["method"] for s in sent if s["code"] == METHOD_NOT_FOUND})
    assert not_found == OUTSIDE_THE_19[run]
    assert not_found == sorted({s["method"] for s in sent} - set(Contract.default().methods))
    for result in (r for r in runs[run] if r["method"] is None):
        assert not result["ok"] and "Method not found" in result["error"], result["call"]


def test_v2_calls_within_the_19_work(runs: dict[str, list[dict[str, Any]]], scenario: Scenario,
                                     inputs: dict[str, Any]) -> None:
    """In V2 mode a call that sends only methods of the 19 is accepted and reads what the V1 call reads."""
    expected = _expected_calls(inputs)
    within = [r for r in runs["0.23.3 V2"] if r["method"] is not None
              and all(s["code"] != METHOD_NOT_FOUND for s in r["sent"])]
    assert {r["method"] for r in within} == set(Contract.default().methods) - V2_REPLACED
    for result in within:
        assert result["ok"], f"{result['call']}: {result.get('error')}"
        expect, given = expected[result["call"]]
        assert result["parsed"] == expect(scenario, given), result["call"]
