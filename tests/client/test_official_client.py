"""The official client, @lightprotocol/stateless.js (exact pin in package.json, lock committed), against
`csi serve` on 127.0.0.1: every one of the 19 methods answers something the client accepts (its own
superstruct validation, then its own types), and the client reads back the values the server sent.

Node and npm are part of the test environment: without them this test fails, it never skips.
`npm ci` runs only when node_modules is missing or was installed from another lock.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import socket
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from ledger_crypto import b58decode, b58encode
from ledger_proofs.circuits import circuit_for
from ledger_proofs.verify import verify_compressed
from reference_server.export import export_document
from reference_server.methods import call
from reference_server.options import ServerOptions
from reference_server.scenario import Scenario, open_scenario
from schema import Contract
from schema.jsonio import dumps, loads
from tests.ledger_proofs.support import installed_prover
from tests.reference_server.support import HANG_GUARD, wait_until_listening

HERE = Path(__file__).parent
CSI = Path(sys.executable).with_name("csi")
STAMP = HERE / "node_modules" / ".csi-lock.sha256"
"""The sha256 of the package-lock.json that node_modules was installed from."""


def _tool(name: str) -> str:
    found = shutil.which(name)
    assert found, f"{name} is required to run the official client (install Node.js 18 or later, with npm)"
    return found


def _install() -> None:
    """`npm ci` unless node_modules already holds exactly what the committed lock names."""
    npm, lock = _tool("npm"), hashlib.sha256((HERE / "package-lock.json").read_bytes()).hexdigest()
    if STAMP.is_file() and STAMP.read_text() == lock:
        return
    done = subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=HERE, capture_output=True, text=True,
                          timeout=5 * HANG_GUARD)
    assert done.returncode == 0, f"npm ci failed:\n{done.stderr[-4000:]}"
    STAMP.write_text(lock)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def served() -> Iterator[str]:
    """`csi serve --prover light` as a user runs it after `make run`: the default scenario, real proofs."""
    port = _free_port()
    env = {**os.environ, "CSI_PROVER_DIR": str(installed_prover().folder)}
    process = subprocess.Popen([CSI, "serve", "--port", str(port), "--scenario", "default", "--prover", "light"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    try:
        wait_until_listening(port, process)
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(HANG_GUARD)


@pytest.fixture(scope="module")
def scenario() -> Scenario:
    return open_scenario("default")


def _fresh(n: int) -> str:
    """An address no scenario holds (byte 0 is 0, so it is below 2^248)."""
    return b58encode(b"\0" + hashlib.sha256(f"official-client-{n}".encode()).digest()[1:])


def _inputs(scenario: Scenario) -> dict[str, Any]:
    """The keys each call uses, from the scenario's derived values (what `csi scenario export` gives)."""
    document = export_document(scenario)
    accounts = {a["label"]: a for a in document["accounts"] if a.get("label")}
    by_hash = {a["hash"]: a for a in document["accounts"]}
    moved_tokens = next(t for t in document["transactions"]
                        if t["closed"] and any(by_hash[h]["tokenData"] for h in t["opened"] + t["closed"]))
    return {
        "hash": accounts["c1"]["hash"], "address": accounts["r1"]["address"], "tokenHash": accounts["t1"]["hash"],
        "owner": document["keys"]["counter"], "tokenOwner": document["keys"]["alice"],
        "delegate": document["keys"]["dave"], "signature": moved_tokens["signature"],
        "freshAddresses": [_fresh(0), _fresh(1)], "addressTree": document["addressTree"]["pubkey"],
        "proofHashes": [{"hash": accounts[label]["hash"], "tree": accounts[label]["tree"]} for label in ("c1", "c4")],
        "stateTrees": [tree["pubkey"] for tree in document["stateTrees"]],
    }


def _drive(url: str, inputs: dict[str, Any]) -> list[dict[str, Any]]:
    _install()
    plan = dumps({"url": url, "inputs": inputs})
    done = subprocess.run([_tool("node"), str(HERE / "drive.mjs")], input=plan, cwd=HERE, capture_output=True,
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
    "Rpc.getCompressedAccountsByOwner(owner)": lambda s, i: (lambda v: {
        "accounts": _by_hash([_account(a) for a in v["items"]]), "cursor": v["cursor"]})(
        _ask(s, "getCompressedAccountsByOwner", {"owner": i["owner"]})),
    "Rpc.getCompressedTokenAccountsByOwner(owner)": lambda s, i: {"accounts": _by_hash([_token(t) for t in _ask(
        s, "getCompressedTokenAccountsByOwner", {"owner": i["tokenOwner"]})["items"]])},
    "Rpc.getCompressedTokenAccountsByDelegate(delegate)": lambda s, i: {"accounts": _by_hash([_token(t) for t in _ask(
        s, "getCompressedTokenAccountsByDelegate", {"delegate": i["delegate"]})["items"]])},
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


@pytest.fixture(scope="module")
def results(served: str, scenario: Scenario) -> list[dict[str, Any]]:
    return _drive(served, _inputs(scenario))


def test_every_method_is_driven_through_the_client(results: list[dict[str, Any]]) -> None:
    assert {r["method"] for r in results} == set(Contract.default().methods)
    assert [r["call"] for r in results] == list(EXPECTED)


def test_the_client_accepts_every_answer(results: list[dict[str, Any]]) -> None:
    refused = {r["call"]: r["error"] for r in results if not r["ok"]}
    assert refused == {}


def test_the_client_reads_what_the_server_sent(results: list[dict[str, Any]], scenario: Scenario) -> None:
    """Lists whose order the client changes (it sorts accounts by leaf index) are compared by hash."""
    inputs = _inputs(scenario)
    for result in (r for r in results if r["ok"]):
        parsed = {k: _by_hash(v) if k in ("accounts", "opened", "closed") else v for k, v in result["parsed"].items()
                  if k != "compressedProof"}  # proof bytes differ from prover run to prover run: verified below
        assert parsed == EXPECTED[result["call"]](scenario, inputs), result["call"]


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
