"""The reference's batched trees over the real transactions of today's ledger: queues, batch events checked
against the roots they state, and an account told apart in the queue and in the tree."""

from __future__ import annotations

import dataclasses

import pytest
from csi_conformance.ledger_ingest import BatchEvent, LedgerTransaction
from csi_conformance.reference_server.batched import BatchedStateTree
from csi_conformance.reference_server.ledger_native import NativeLedger

from tests.ledger_ingest.test_batched_ingest import folder_transactions


def _changes(folder: str) -> list[LedgerTransaction]:
    return [changes for _, changes in folder_transactions(folder)]


def _ledger(transactions: list[LedgerTransaction]) -> NativeLedger:
    ledger = NativeLedger()
    with ledger.native_batch():
        for tx in sorted(transactions, key=lambda tx: tx.slot):
            ledger.apply_native(tx)
    return ledger


def _batched(ledger: NativeLedger) -> BatchedStateTree:
    (tree,) = (tree for tree in ledger.state_trees.values() if isinstance(tree, BatchedStateTree))
    return tree


def test_every_batch_event_reaches_the_root_it_states() -> None:
    ledger = _ledger(_changes("batched_tree_transactions"))
    tree = _batched(ledger)
    assert tree.whole and tree.appended == 100
    events = [event for tx in _changes("batched_tree_transactions") for event in tx.batch_updates]
    assert tree.root == events[-1].new_root and tree.root_index == events[-1].root_index


def _with_root(tx: LedgerTransaction, root: bytes) -> LedgerTransaction:
    (event,) = tx.batch_updates
    return dataclasses.replace(tx, batch_updates=(dataclasses.replace(event, new_root=root),))


def test_a_batch_event_whose_root_the_queued_values_do_not_reach_is_refused_naming_its_tree() -> None:
    transactions = _changes("batched_tree_transactions")
    last = max(i for i, tx in enumerate(transactions) if tx.batch_updates)
    transactions[last] = _with_root(transactions[last], bytes(31) + b"\x01")
    with pytest.raises(ValueError, match=r"batch (append|nullify) of tree HLKs5NJ8.* states root 0+1"):
        _ledger(transactions)


def test_an_account_leaves_the_queue_with_the_append_that_covers_its_leaf() -> None:
    transactions = sorted(_changes("batched_tree_transactions"), key=lambda tx: tx.slot)
    first_append = next(i for i, tx in enumerate(transactions) if any(e.kind == "append" for e in tx.batch_updates))
    before = _ledger(transactions[:first_append])
    after = _ledger(transactions[:first_append + 1])
    event: BatchEvent = transactions[first_append].batch_updates[0]
    for ledger, appended in ((before, False), (after, True)):
        live = [a for a in ledger.accounts.values() if not a.closed and a.leaf_index < event.new_next_index]
        assert live and all(ledger.in_output_queue(a) is not appended for a in live)
        assert all(a.seq is None and a.queue is not None for a in live)


def test_the_batched_address_tree_keeps_its_queue_and_inserts_every_append() -> None:
    ledger = _ledger(_changes("batched_address_transactions"))
    assert len(ledger.batched_address_trees) == 1
    (queue,) = ledger.batched_address_trees.values()
    assert queue.whole and len(queue.queued) == 50 and queue.tree.next_index == 51
