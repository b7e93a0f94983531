"""The V2 and queue methods over real batched-tree transactions (Photon's test folders), judged for what they
mean: each account's merkle context is the tree and output queue it is really in, `proveByIndex` is true exactly
while it waits in that queue, proofs fold to the tree's root, root indices are the tree's own, and the queues are
what the ledger holds. Every answer is also checked against the second contract."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest
from csi_conformance.groundwork.base58 import b58decode, b58encode
from csi_conformance.ledger_crypto import (
    BATCHED_ADDRESS_HEIGHT,
    NonInclusionProof,
    fold_path,
    hash_chain,
    nullifier,
    verify_non_inclusion,
)
from csi_conformance.reference_server.batched import BatchedStateTree
from csi_conformance.reference_server.errors import RpcError
from csi_conformance.reference_server.ledger_native import NativeLedger
from csi_conformance.reference_server.methods import call, readings
from csi_conformance.reference_server.options import ServerOptions
from csi_conformance.reference_server.records import Account
from csi_conformance.reference_server.wiring import SERVED_API
from csi_conformance.schema import Contract

from tests.reference_server.test_batched import _changes, _ledger

CONTRACT = Contract.for_api(SERVED_API)
OPTIONS = ServerOptions()
DEFAULT_KEY = "11111111111111111111111111111111"


@pytest.fixture(scope="module")
def ledger() -> NativeLedger:
    """`batched_tree_transactions` up to its first BatchAppend: 5 live accounts appended, 45 still queued, 50 spent
    with their nullifiers queued."""
    transactions = sorted(_changes("batched_tree_transactions"), key=lambda tx: tx.slot)
    first_append = next(i for i, tx in enumerate(transactions) if tx.batch_updates)
    return _ledger(transactions[: first_append + 1])


@pytest.fixture(scope="module")
def tree(ledger: NativeLedger) -> BatchedStateTree:
    (found,) = (t for t in ledger.state_trees.values() if isinstance(t, BatchedStateTree))
    return found


def ask(ledger: NativeLedger, method: str, params: Any) -> Any:
    result = call(ledger, method, params, OPTIONS, CONTRACT)
    problems = CONTRACT.result_validator(method, readings(CONTRACT, OPTIONS)).violations(result)
    assert problems == [], f"{method}: {[str(p) for p in problems]}"
    return result["value"] if CONTRACT.method(method).state else result


def _batched_live(ledger: NativeLedger, tree: BatchedStateTree) -> list[Account]:
    return sorted((a for a in ledger.accounts.values() if not a.closed and ledger.state_trees[a.tree] is tree),
                  key=lambda a: a.leaf_index)


def test_merkle_context_is_the_tree_and_queue_the_account_is_in(ledger: NativeLedger, tree: BatchedStateTree) -> None:
    live = _batched_live(ledger, tree)
    flags = []
    for account in live:
        value = ask(ledger, "getCompressedAccountV2", {"hash": b58encode(account.hash)})
        assert value["merkleContext"] == {"treeType": 3, "tree": b58encode(account.tree),
                                          "queue": b58encode(tree.queue), "cpiContext": None, "nextTreeContext": None}
        assert value["proveByIndex"] is (account.leaf_index >= tree.appended) and value["seq"] is None
        flags.append(value["proveByIndex"])
    assert True in flags and False in flags
    listed = ask(ledger, "getMultipleCompressedAccountsV2", {"hashes": [b58encode(a.hash) for a in live]})["items"]
    assert [item["proveByIndex"] for item in listed] == flags


def _one_of_each(ledger: NativeLedger, tree: BatchedStateTree) -> tuple[Account, Account]:
    live = _batched_live(ledger, tree)
    appended = next(a for a in live if not tree.in_queue(a.leaf_index))
    return appended, next(a for a in live if tree.in_queue(a.leaf_index))


def test_account_proofs_fold_to_the_root_by_hash_or_by_index(ledger: NativeLedger, tree: BatchedStateTree) -> None:
    appended, queued = _one_of_each(ledger, tree)
    for account, leaf, by_index in ((appended, appended.hash, False), (queued, bytes(32), True)):
        value = ask(ledger, "getCompressedAccountProofV2", {"hash": b58encode(account.hash)})
        assert value["proveByIndex"] is by_index and value["rootSeq"] == tree.seq
        assert value["treeContext"] == {"treeType": 3, "tree": b58encode(account.tree), "queue": b58encode(tree.queue),
                                        "cpiContext": None}
        path = [b58decode(node, length=32) for node in value["proof"]]
        assert len(path) == 32 and fold_path(leaf, account.leaf_index, path) == tree.root == b58decode(value["root"])
    v1 = ask(ledger, "getCompressedAccountProof", {"hash": b58encode(appended.hash)})
    assert v1["merkleTree"] == b58encode(appended.tree) and v1["root"] == b58encode(tree.root)
    with pytest.raises(RpcError, match="Record Not Found: Leaf nodes not found"):
        call(ledger, "getCompressedAccountProof", {"hash": b58encode(queued.hash)}, OPTIONS, CONTRACT)
    multiple = ask(ledger, "getMultipleCompressedAccountProofsV2", [b58encode(queued.hash), b58encode(appended.hash)])
    assert [(p["proveByIndex"], p["root"], len(p["proof"])) for p in multiple] == [
        (True, DEFAULT_KEY, 0), (False, b58encode(tree.root), 32)]


def test_validity_proof_v2_proves_a_queued_account_by_index_and_takes_the_trees_root_index(
        ledger: NativeLedger, tree: BatchedStateTree) -> None:
    appended, queued = _one_of_each(ledger, tree)
    value = ask(ledger, "getValidityProofV2", {"hashes": [b58encode(queued.hash)]})
    assert value["compressedProof"] is None
    (element,) = value["accounts"]
    assert element["rootIndex"] == {"rootIndex": 0, "proveByIndex": True} and element["root"] == DEFAULT_KEY
    assert element["merkleContext"]["queue"] == b58encode(tree.queue) and element["leafIndex"] == queued.leaf_index
    both = ask(ledger, "getValidityProofV2", {"hashes": [b58encode(appended.hash), b58encode(queued.hash)]})
    assert [a["rootIndex"] for a in both["accounts"]] == [{"rootIndex": tree.root_index, "proveByIndex": False},
                                                          {"rootIndex": 0, "proveByIndex": True}]
    assert tree.root_index == tree.stated_root_index  # the root index the tree's own batch event stated
    assert both["accounts"][0]["root"] == b58encode(tree.root)


def test_a_closed_batched_account_names_the_nullifier_its_spend_queued(ledger: NativeLedger,
                                                                       tree: BatchedStateTree) -> None:
    spend = next(tx for tx in ledger.transactions.values()
                 if tx.closed and ledger.state_trees[ledger.accounts[tx.closed[0]].tree] is tree)
    value = ask(ledger, "getTransactionWithCompressionInfoV2", {"signature": b58encode(spend.signature)})
    closed = value["compressionInfo"]["closedAccounts"]
    assert [c["account"]["account"]["hash"] for c in closed] == [b58encode(h) for h in spend.closed]
    for item in closed:
        account = ledger.accounts[b58decode(item["account"]["account"]["hash"], length=32)]
        tx_hash = b58decode(item["account"]["txHash"], length=32)
        expected = nullifier(account.hash, account.leaf_index, tx_hash)
        assert b58decode(item["account"]["nullifier"], length=32) == expected
        assert (account.leaf_index, expected) in tree.nullifiers.values()
    for item in value["compressionInfo"]["openedAccounts"]:
        account = ledger.accounts[b58decode(item["account"]["hash"], length=32)]
        assert item["account"]["proveByIndex"] is ledger.in_output_queue(account)


def test_queue_info_counts_what_waits(ledger: NativeLedger, tree: BatchedStateTree) -> None:
    key = next(k for k, t in ledger.state_trees.items() if t is tree)
    in_tree = [a for a in ledger.accounts.values() if a.tree == key]
    waiting_outputs = sum(a.leaf_index >= tree.appended for a in in_tree)
    spent = sum(a.closed for a in in_tree)
    value = ask(ledger, "getQueueInfo", {"trees": [b58encode(key)]})
    assert value == {"queues": [
        {"tree": b58encode(key), "queue": b58encode(tree.queue), "queueType": 3, "queueSize": spent},
        {"tree": b58encode(key), "queue": b58encode(tree.queue), "queueType": 5, "queueSize": waiting_outputs}],
        "slot": ledger.indexed_slot}
    assert (waiting_outputs, spent) == (90, 50)


def test_queue_elements_give_whole_zkp_batches_with_their_hash_chains(ledger: NativeLedger,
                                                                      tree: BatchedStateTree) -> None:
    key = next(k for k, t in ledger.state_trees.items() if t is tree)
    value = ask(ledger, "getQueueElements", {"tree": b58encode(key), "outputQueue": {"limit": 25, "zkpBatchSize": 10},
                                             "inputQueue": {"limit": 10, "zkpBatchSize": 10}})
    state = value["stateQueue"]
    assert state["initialRoot"] == b58encode(tree.root) and state["rootSeq"] == tree.seq
    output = state["outputQueue"]
    assert output["leafIndices"] == list(range(tree.appended, tree.appended + 20))
    by_leaf = {a.leaf_index: a.hash for a in ledger.accounts.values() if a.tree == key}
    hashes = [by_leaf[i] for i in output["leafIndices"]]
    assert output["accountHashes"] == [b58encode(h) for h in hashes]
    assert output["leavesHashChains"] == [b58encode(hash_chain(hashes[:10])), b58encode(hash_chain(hashes[10:]))]
    assert output["firstQueueIndex"] == output["nextIndex"] == tree.appended
    queued = sorted(tree.nullifiers.items())[:10]
    assert state["inputQueue"]["nullifiers"] == [b58encode(n) for _, (_, n) in queued]
    assert state["inputQueue"]["leavesHashChains"] == [b58encode(hash_chain([n for _, (_, n) in queued]))]
    nothing = ask(ledger, "getQueueElements", {"tree": b58encode(key), "outputQueue": {"limit": 5, "zkpBatchSize": 10}})
    assert "stateQueue" not in nothing


@pytest.fixture(scope="module")
def address_ledger() -> NativeLedger:
    return _ledger(_changes("batched_address_transactions"))


def test_new_address_proofs_v2_in_a_batched_address_tree(address_ledger: NativeLedger) -> None:
    (tree_key,) = address_ledger.batched_address_trees
    queue = address_ledger.batched_address_trees[tree_key]
    taken = next(iter(queue.queued.values()))
    with pytest.raises(RpcError, match="already exists"):
        call(address_ledger, "getMultipleNewAddressProofsV2", [{"address": b58encode(taken),
                                                                "tree": b58encode(tree_key)}], OPTIONS, CONTRACT)
    fresh = b"\0" + hashlib.sha256(b"today-batched-address").digest()[1:]
    (value,) = ask(address_ledger, "getMultipleNewAddressProofsV2", [{"address": b58encode(fresh),
                                                                      "tree": b58encode(tree_key)}])
    assert value["merkleTree"] == b58encode(tree_key) and len(value["proof"]) == BATCHED_ADDRESS_HEIGHT
    proof = NonInclusionProof(
        int.from_bytes(fresh, "big"), int.from_bytes(b58decode(value["lowerRangeAddress"], length=32), "big"),
        value["nextIndex"], int.from_bytes(b58decode(value["higherRangeAddress"], length=32), "big"),
        value["lowElementLeafIndex"], tuple(b58decode(n, length=32) for n in value["proof"]),
        b58decode(value["root"], length=32), value["rootSeq"])
    assert verify_non_inclusion(proof, height=BATCHED_ADDRESS_HEIGHT, batched=True)
    info = ask(address_ledger, "getQueueInfo", {})["queues"]
    assert {"tree": b58encode(tree_key), "queue": b58encode(tree_key), "queueType": 4,
            "queueSize": sum(int.from_bytes(a, "big") not in queue.tree for a in queue.queued.values())} in info
