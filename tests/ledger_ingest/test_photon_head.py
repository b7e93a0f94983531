"""What Photon HEAD's own tests assert about today's ledger, asked of the reference through the 19 methods.

Each folder of `fixtures/photon-head/` (real transactions of batched trees, see its README) is ingested into
a `NativeLedger` and asked through `reference_server.methods.call`, the path `csi serve` answers by. Photon's
tests (`tests/integration_tests/` of helius-labs/photon at 366a15b) mostly ask methods outside the 19: the V2
methods, `getMultipleCompressedAccountProofs`, `getQueueElements`, or its database. Each test below says which
Photon assertions it carries (file, function, lines) and how they were translated: into what the 19 methods
must answer, or, where none of them can say it, into the reference's ledger state (its trees and queues), as
`test_photon_replay.py` does for `getMultipleCompressedAccountProofs`.

This file: the batched state tree (`batched_tree_transactions`, `batch_append_nullify`). The address tree,
the token account with TLV, the four CPI events and the devnet transaction: `test_photon_head_more.py`.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

import pytest
from csi_conformance.groundwork.base58 import b58decode, b58encode
from csi_conformance.ledger_crypto import StateTree, fold_path, nullifier, transaction_hash
from csi_conformance.ledger_ingest import Block, read_paths
from csi_conformance.reference_server.batched import BatchedStateTree
from csi_conformance.reference_server.errors import RpcError
from csi_conformance.reference_server.ingest import ledger_from_blocks
from csi_conformance.reference_server.ledger_native import NativeLedger
from csi_conformance.reference_server.methods import call
from csi_conformance.reference_server.options import ServerOptions
from csi_conformance.schema import Contract

from tests.ledger_ingest.test_batched_ingest import QUEUE, TRANSACTIONS, TREE

WIRE, SPEC = ServerOptions(), ServerOptions(proof_form="spec-2.10")
BATCHED = "batched_tree_transactions"
LAMPORTS = 1_000_000
ON_CHAIN_ROOT_HISTORY = ("4C4hXkTeb81GhLj8GBTwDxRxvBy2xZxVFh4YfthKA6XJ", "433kYLWvdMNY8SVGamZakDQFNZRu569gR37RxrM4Q4Vk",
                         "3SgZfe7CoZEfYP1YbEyqKpK3qkoTypobm2oXsqsNLQKL", "4D1x7SoCWSu6KTTDwyKsphwNCb4er7wr5Rw3qAv2o1wg",
                         "et9ihtqjKu8uszGmNDQA9ErNzT8tbyVzmN1833fGrUF")
"""`batch_append_nullified_test.rs` L177-183: the on-chain roots of batch_append_nullify, by sequence number."""
SENDER = "AVBr8cgZKFJaTEx7rYaexAmZxoXsC8ze1ecegQgWhPnb"


@cache
def blocks(folder: str) -> tuple[Block, ...]:
    """The folder's transactions, one block each, in slot order (Photon's `read_file_names(.., sort_by_slot)`)."""
    return tuple(read_paths([TRANSACTIONS / folder]))


def ledger_of(folder: str, count: int | None = None) -> NativeLedger:
    """A ledger over the folder's first `count` transactions (all by default)."""
    return ledger_from_blocks(blocks(folder)[:count])


def ask(ledger: NativeLedger, contract: Contract, method: str, params: Any, options: ServerOptions = WIRE) -> Any:
    return call(ledger, method, params, options, contract)


def batched_tree(ledger: NativeLedger) -> BatchedStateTree:
    tree = ledger.state_trees[b58decode(TREE, length=32)]
    assert isinstance(tree, BatchedStateTree)
    return tree


def output_queue_length(tree: BatchedStateTree) -> int:
    """What `getQueueElements` lists of the output queue: queued outputs the tree has not appended (spent ones
    too, as Photon keeps them until their batch is appended)."""
    return sum(index >= tree.appended for index in tree.outputs)


def input_queue_length(tree: BatchedStateTree) -> int:
    """What `getQueueElements` lists of the input queue: queued nullifiers not yet written at their leaf."""
    return sum(index >= tree.next_index or tree.leaf(index) != value for index, value in tree.nullifiers.values())


def infos(ledger: NativeLedger, contract: Contract, signature: bytes) -> dict:
    answer = ask(ledger, contract, "getTransactionWithCompressionInfo", {"signature": b58encode(signature)})
    return answer["compressionInfo"]


def chunks(items: Sequence[str], size: int = 4) -> list[Sequence[str]]:
    return [items[at:at + size] for at in range(0, len(items), size)]


# -------------------------------------------------------------------------------- batched_tree_transactions


@cache
def user_phase() -> tuple[list[str], list[dict], list[str]]:
    """Photon's first phase (L80-169) over the 100 user transactions: the target owners in the order they appear
    with a 1,000,000-lamport output, every opened account, and the hashes of every second one (L170-175)."""
    ledger = ledger_of(BATCHED, 100)
    owners: list[str] = []
    opened: list[dict] = []
    for block in blocks(BATCHED)[:100]:
        for tx in block.transactions:
            for item in infos(ledger, Contract.default(), tx.signature)["openedAccounts"]:
                opened.append(item["account"])
                owner = item["account"]["owner"]
                if item["account"]["lamports"] == LAMPORTS and owner not in owners and len(owners) < 51:
                    owners.append(owner)
    return owners, opened, [account["hash"] for account in opened[1::2]]


def test_before_the_forester_every_queued_account_is_proven_by_index(contract: Contract) -> None:
    """batched_state_tree_tests.rs, test_batched_tree_transactions: L139-168 and L453-454 (100 outputs, 50
    inputs), L170-210 (every second output, four at a time: `getValidityProofV2` proves each by index, root
    `11111111111111111111111111111111`, merkle context tree and queue), `seq == None` of v2 accounts (as L691).

    Translation: `getValidityProof` in §2.10's form answers `proveByIndices` all true, roots 0 and no
    `compressedProof` (nothing needs a zero-knowledge proof); its wire form has no `proveByIndices` and refuses
    them as Photon's V1 method does ("Leaf nodes not found"). The queue is not in any answer of the 19: it is
    the reference's account state. `seq` null is the reading `batched-seq` of the contract (the spec's table
    says integer; Photon's answer, null, is the observed reading the reference serves).
    """
    ledger = ledger_of(BATCHED, 100)
    owners, opened, every_second = user_phase()
    closed = [item for block in blocks(BATCHED)[:100] for tx in block.transactions
              for item in infos(ledger, contract, tx.signature)["closedAccounts"]]
    assert (len(opened), len(closed), len(owners)) == (100, 50, 51)
    assert {a["tree"] for a in opened + [c["account"] for c in closed]} == {TREE}
    assert all(a["seq"] is None for a in opened)
    assert {b58encode(ledger.accounts[b58decode(a["hash"], length=32)].queue) for a in opened} == {QUEUE}
    tree = batched_tree(ledger)
    assert (output_queue_length(tree), len(tree.nullifiers), input_queue_length(tree)) == (100, 50, 50)
    assert len(every_second) == 50
    for hashes in chunks(every_second):
        proof = ask(ledger, contract, "getValidityProof", {"hashes": list(hashes)}, SPEC)["value"]
        assert proof["proveByIndices"] == [True] * len(hashes) and proof["compressedProof"] is None
        assert proof["roots"] == [0] * len(hashes) and proof["rootIndices"] == [0] * len(hashes)
        assert {info["tree"] for info in proof["treeInfos"]} == {TREE}
        with pytest.raises(RpcError, match="Leaf nodes not found"):
            ask(ledger, contract, "getValidityProof", {"hashes": list(hashes)})


def test_each_batch_event_empties_its_queue_by_ten_and_proofs_follow_the_tree(contract: Contract) -> None:
    """test_batched_tree_transactions L212-451: for each of the 15 batch events (ten appends, then five
    nullifies, L304): an append takes 10 from the output queue and leaves the input queue, a nullify the
    other way round (`getQueueElements` before and after); then every second output, four at a time, is
    proven by index exactly when its leaf is at or past the last appended index (root `111…1` then), with the
    tree and queue of the context (L414-451); at the end both queues are empty (L455-501).

    Translation: queue lengths are the reference's queue state (`getQueueElements` is not among the 19);
    the proofs are `getValidityProof` in §2.10's form. Where a leaf is in the tree, the root the answer
    names must be the one the event states (the chain's), at the event's root index; `compressedProof` is null
    throughout (Photon's test does not look at it).
    """
    ledger = ledger_of(BATCHED, 100)
    tree = batched_tree(ledger)
    _, _, every_second = user_phase()
    leaf_of = {h: ledger.accounts[b58decode(h, length=32)].leaf_index for h in every_second}
    events = blocks(BATCHED)[100:]
    kinds = [event.kind for block in events for tx in block.transactions for event in tx.batch_updates]
    assert kinds == ["append"] * 10 + ["nullify"] * 5
    for block in events:
        [event] = [event for tx in block.transactions for event in tx.batch_updates]
        before = output_queue_length(tree), input_queue_length(tree)
        ledger_from_blocks([block], ledger)
        after = output_queue_length(tree), input_queue_length(tree)
        assert after == ((before[0] - 10, before[1]) if event.kind == "append" else (before[0], before[1] - 10))
        assert tree.appended == event.new_next_index if event.kind == "append" else tree.appended == 100
        for hashes in chunks(every_second):
            proof = ask(ledger, contract, "getValidityProof", {"hashes": list(hashes)}, SPEC)["value"]
            by_index = [leaf_of[h] >= tree.appended for h in hashes]
            assert proof["proveByIndices"] == by_index
            assert {info["tree"] for info in proof["treeInfos"]} == {TREE}
            for queued, root, root_index in zip(by_index, proof["roots"], proof["rootIndices"], strict=True):
                expected = (0, 0) if queued else (int.from_bytes(event.new_root, "big"), event.root_index)
                assert (root, root_index) == expected
            # by index: nothing to prove; in the tree: the batched circuit the kit's prover lacks (no proof served)
            assert proof["compressedProof"] is None
    assert (output_queue_length(tree), input_queue_length(tree)) == (0, 0)


def test_every_remaining_owner_holds_one_account_at_an_odd_leaf_of_the_rebuilt_tree(contract: Contract) -> None:
    """test_batched_tree_transactions L513-595: 51 target owners, the first (whose accounts were all spent)
    dropped; owner i has exactly one account by `getCompressedAccountsByOwner`, of 1,000,000 lamports, at leaf
    2i + 1; its hash is the leaf there of a tree rebuilt from the transactions' compression info (outputs at
    their leaves, each spent account's nullifier at its leaf, L129-150), and `getMultipleCompressedAccountProofs`
    gives that hash, the rebuilt tree's root and its proof.

    Translation: the compression info is `getTransactionWithCompressionInfo`'s (the nullifier is recomputed:
    Poseidon(hash, leaf, tx_hash), Light's `nullifier.rs`); the proof is the reference's tree state (not in
    the 19), whose root must also be the one the last batch event states.
    """
    ledger = ledger_of(BATCHED)
    owners, _, _ = user_phase()
    rebuilt: dict[int, bytes] = {}
    for block in blocks(BATCHED)[:100]:
        [tx] = block.transactions
        info = infos(ledger, contract, tx.signature)
        outputs = [b58decode(item["account"]["hash"], length=32) for item in info["openedAccounts"]]
        spent = [b58decode(item["account"]["hash"], length=32) for item in info["closedAccounts"]]
        tx_hash = transaction_hash(spent, outputs, block.slot)
        for item in info["openedAccounts"]:
            rebuilt.setdefault(item["account"]["leafIndex"], b58decode(item["account"]["hash"], length=32))
        for item, hash_ in zip(info["closedAccounts"], spent, strict=True):
            rebuilt[item["account"]["leafIndex"]] = nullifier(hash_, item["account"]["leafIndex"], tx_hash)
    reference = StateTree(height=32)
    reference.write_leaves(rebuilt, seq=0)
    tree = batched_tree(ledger)
    [last] = blocks(BATCHED)[-1].transactions[0].batch_updates
    assert tree.root == reference.root == last.new_root
    assert ask(ledger, contract, "getCompressedAccountsByOwner", {"owner": owners[0]})["value"]["items"] == []
    for i, owner in enumerate(owners[1:]):
        items = ask(ledger, contract, "getCompressedAccountsByOwner", {"owner": owner})["value"]["items"]
        assert len(items) == 1, owner
        [account] = items
        leaf = 2 * i + 1
        assert (account["lamports"], account["owner"], account["leafIndex"], account["seq"]) == (
            LAMPORTS, owner, leaf, None)
        hash_ = b58decode(account["hash"], length=32)
        assert tree.leaf(leaf) == reference.leaf(leaf) == hash_
        assert tree.proof(leaf) == reference.proof(leaf)
        assert fold_path(hash_, leaf, tree.proof(leaf)) == tree.root


def test_indexing_the_same_transactions_again_changes_no_answer(contract: Contract) -> None:
    """test_batched_tree_transactions L503-511 indexes every transaction a second time before its last
    assertions, which must still hold. The reference refuses them (ValueError before any change: the first one's
    slot is behind the indexed one) where Photon ignores them: either way nothing changes, which is asserted."""
    ledger = ledger_of(BATCHED)
    owners, _, _ = user_phase()
    before = [ask(ledger, contract, "getCompressedAccountsByOwner", {"owner": o}) for o in owners]
    root = batched_tree(ledger).root
    with pytest.raises(ValueError, match="goes backwards"):
        ledger_from_blocks(blocks(BATCHED), ledger)
    assert [ask(ledger, contract, "getCompressedAccountsByOwner", {"owner": o}) for o in owners] == before
    assert batched_tree(ledger).root == root


# -------------------------------------------------------------------------------- batch_append_nullify


def test_the_roots_after_append_nullify_append_are_the_chains(contract: Contract) -> None:
    """batch_append_nullified_test.rs, test_batch_append_followed_by_nullify_in_queue: L51-118 (before BatchAppend
    seq 4 the tree's output queue holds accounts), L157-206 (the tree's root, with its seq, is the on-chain root
    of that seq: after BatchAppend 1, 2, BatchNullify 3 and BatchAppend 4 it is `et9ihtqj…`, seq 4).

    Translation: the root is what `getValidityProof` (wire form) names for a live account already in the tree,
    after every batch event (Photon checks it at the end only; the on-chain history gives every step), at the
    event's root index; the seq is the reference's tree state. Accounts in the output queue before BatchAppend
    4: the sender's live accounts past the appended index, which §2.10's form proves by index.
    """
    names = [tx.signature_text for block in blocks("batch_append_nullify") for tx in block.transactions]
    events = [i for i, block in enumerate(blocks("batch_append_nullify")) if block.transactions[0].batch_updates]
    assert [names[i][:8] for i in events] == ["4BWyAeXy", "3UdMPT7U", "2u8yxJ95", "2h1vPiv1"]
    for seq, position in enumerate(events, start=1):
        ledger = ledger_of("batch_append_nullify", position)
        tree = batched_tree(ledger)
        items = ask(ledger, contract, "getCompressedAccountsByOwner", {"owner": SENDER})["value"]["items"]
        if seq == 4:
            queued = [a["hash"] for a in items if a["leafIndex"] >= tree.appended]
            assert queued and tree.appended == 20
            proof = ask(ledger, contract, "getValidityProof", {"hashes": queued[:4]}, SPEC)["value"]
            assert all(proof["proveByIndices"])
        ledger_from_blocks(blocks("batch_append_nullify")[position:position + 1], ledger)
        assert (b58encode(tree.root), tree.seq) == (ON_CHAIN_ROOT_HISTORY[seq], seq)
        items = ask(ledger, contract, "getCompressedAccountsByOwner", {"owner": SENDER})["value"]["items"]
        [appended, *_] = sorted((a["leafIndex"], a["hash"]) for a in items)
        assert appended[0] < tree.appended
        proof = ask(ledger, contract, "getValidityProof", {"hashes": [appended[1]]})["value"]
        assert (proof["roots"], proof["rootIndices"], proof["merkleTrees"]) == (
            [ON_CHAIN_ROOT_HISTORY[seq]], [seq], [TREE])
