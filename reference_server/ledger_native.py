"""A ledger built from the real chain: hashes, leaf indices and sequence numbers are facts.

The scenario ledger (`ledger.py`) derives every hash, leaf index and seq itself. A real
transaction gives them (ledger-native.md, "From events to state"): an output account's hash,
tree, leaf index and seq come from its event; an input only marks the account spent, and its
leaf stays in the state tree until a forester's nullifier event writes zero there; the address
tree changes only by the forester's indexed-tree events. `NativeLedger` applies the plain
`ledger_ingest.LedgerTransaction` values to the same accounts, indexes and trees the methods
read, so an ingested ledger answers every method like any other.

Trees: a leaf write (state or address) applies only when its seq is at least the seq stored for
that leaf; a tree's seq (`rootSeq`) is the highest leaf seq seen. Positions never seen hold zero
(a slice that starts mid-chain knows only the leaves it saw). Every check runs before anything
changes: a transaction that cannot apply raises ValueError and leaves the ledger as it was.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field

from csi_conformance.groundwork.base58 import b58encode
from csi_conformance.groundwork.jsonio import dumps
from csi_conformance.ledger_crypto import (
    BATCHED_STATE_HEIGHT,
    FIELD_MODULUS,
    HEIGHT,
    AddressElement,
    AddressTree,
    StateTree,
    element_leaf,
)
from csi_conformance.ledger_ingest import AddressUpdate, LedgerTransaction
from csi_conformance.reference_server.batched import BatchedAddressQueue, BatchedStateTree
from csi_conformance.reference_server.ledger import DEFAULT_ADDRESS_TREE, DEFAULT_STATE_TREE, Ledger
from csi_conformance.reference_server.records import Account, PendingTransaction, TokenBalanceChange, Transaction

__all__ = ["NativeAddressTree", "NativeLedger", "NativeStateTree"]

_ZERO = bytes(32)
_CAPACITY = 1 << HEIGHT
_ADDRESS_BOUND = 2**248


class NativeStateTree(StateTree):
    """A state tree whose leaves are written at given indices with given seqs."""

    def __init__(self) -> None:
        super().__init__()
        self.leaf_seqs: dict[int, int] = {}

    @property
    def whole(self) -> bool:
        """Whether every leaf position in use was written by an event seen: false for a slice of the chain
        that starts after the tree's first appends (its root is then not the chain's)."""
        return len(self.leaf_seqs) >= self.next_index

    def write_facts(self, writes: Sequence[tuple[int, bytes, int]]) -> None:
        """Apply (leaf index, leaf, seq) writes in order; a write older than the leaf's seq is ignored."""
        final: dict[int, bytes] = {}
        top = self.seq
        for index, leaf, seq in writes:
            if seq >= self.leaf_seqs.get(index, -1):
                self.leaf_seqs[index] = seq
                final[index] = leaf
                top = max(top, seq)
        self.write_leaves(final, seq=top)


class NativeAddressTree(AddressTree):
    """The address tree written by indexed-tree events: elements at given indices, with given seqs.

    It starts as a fresh tree (elements 0 and HIGHEST_ADDRESS_PLUS_ONE); an event overwrites
    those like any element. Positions never written hold zero and no value.
    """

    def __init__(self) -> None:
        super().__init__()
        self.leaf_seqs: dict[int, int] = {}

    def write_facts(self, updates: Sequence[AddressUpdate]) -> None:
        """Apply the events' elements in order; one older than its index's seq is ignored."""
        elements: list[tuple[int, AddressElement]] = []
        top = self.seq
        for update in updates:
            if update.seq < self.leaf_seqs.get(update.index, -1):
                continue
            self.leaf_seqs[update.index] = update.seq
            top = max(top, update.seq)
            elements.append((update.index, AddressElement(update.value, update.next_index, update.next_value)))
        self.write_elements(elements, seq=top)


@dataclass
class _Writes:
    state: dict[bytes, list[tuple[int, bytes, int]]] = field(default_factory=dict)
    address: list[AddressUpdate] = field(default_factory=list)


class NativeLedger(Ledger):
    """A ledger that applies real transactions (`apply_native`); `apply` is not for it."""

    def __init__(self, *, state_trees: Sequence[bytes] = (DEFAULT_STATE_TREE,),
                 address_tree: bytes = DEFAULT_ADDRESS_TREE) -> None:
        super().__init__(state_trees=state_trees, address_tree=address_tree)
        self.state_trees = {key: NativeStateTree() for key in self.state_trees}
        self.address_tree = NativeAddressTree()
        self.unknown_inputs = 0
        """Inputs naming accounts this ledger never saw opened (a slice that starts mid-chain)."""
        self._writes: _Writes | None = None

    def partial_trees(self) -> tuple[bytes, ...]:
        """The trees of which this ledger has not seen every leaf (a slice that starts mid-chain): the roots it
        serves for them are not the chain's, so they are no truth to compare a target's roots with."""
        partial = [key for key, tree in self.state_trees.items()
                   if isinstance(tree, NativeStateTree | BatchedStateTree) and not tree.whole]
        mid_chain = bool(partial) or self.unknown_inputs > 0  # the address tree's first insertions were missed too
        batched = [key for key, queue in self.batched_address_trees.items() if not queue.whole]
        return (*partial, *([self.address_tree_key] if mid_chain or self.address_tree.unwritten else []), *batched)

    def apply(self, tx: PendingTransaction) -> Transaction:
        raise TypeError("a ledger built from the real chain applies real transactions only (apply_native)")

    @contextmanager
    def native_batch(self) -> Iterator[NativeLedger]:
        """Apply many transactions, writing each tree once at the end (nested blocks join the outer)."""
        if self._writes is not None:
            yield self
            return
        self._writes = _Writes()
        collecting = gc.isenabled()
        gc.disable()
        try:
            yield self
        finally:
            writes, self._writes = self._writes, None
            try:
                for key, items in writes.state.items():
                    tree = self.state_trees[key]
                    assert isinstance(tree, NativeStateTree)
                    tree.write_facts(items)
                if writes.address:
                    assert isinstance(self.address_tree, NativeAddressTree)
                    self.address_tree.write_facts(writes.address)
            finally:
                if collecting:
                    gc.enable()

    def apply_native(self, tx: LedgerTransaction) -> Transaction | None:
        """Apply one real transaction; None for one an indexer does not record (a plain vote).
        ValueError, before any change, when it cannot apply."""
        if self._writes is None:
            with self.native_batch():
                return self.apply_native(tx)
        name = b58encode(tx.signature)
        if tx.slot < self.indexed_slot:
            raise ValueError(f"transaction {name}: slot {tx.slot} goes backwards "
                             f"(slot {self.indexed_slot} is already indexed)")
        if not tx.indexed:
            self.advance_to(tx.slot)
            return None
        if tx.signature in self.transactions:
            raise ValueError(f"transaction {name} is already applied")
        closing = self._check(tx, name)
        done = self._commit(tx, closing)
        self.transactions[tx.signature] = done
        self.signatures.add("all", done.key)
        if tx.error is None and tx.uses_compression:
            self.signatures.add("succeeded", done.key)
        self.advance_to(tx.slot)
        return done

    def _check(self, tx: LedgerTransaction, name: str) -> list[Account]:
        opened: set[bytes] = set()
        for output in tx.opened:
            label = f"transaction {name}: output {b58encode(output.hash)}"
            if output.hash in self.accounts or output.hash in opened:
                raise ValueError(f"{label} already exists (is the transaction applied twice?)")
            opened.add(output.hash)
            if int.from_bytes(output.hash, "big") >= FIELD_MODULUS:
                raise ValueError(f"{label} is not below the field modulus")
            height = HEIGHT if output.queue is None else BATCHED_STATE_HEIGHT
            if not 0 <= output.leaf_index < 1 << height:
                raise ValueError(f"{label}: leaf index {output.leaf_index} is outside a tree of height {height}")
            known = self.state_trees.get(output.tree)
            if known is not None and isinstance(known, BatchedStateTree) != (output.queue is not None):
                kind = "a batched tree" if isinstance(known, BatchedStateTree) else "a v1 tree"
                raise ValueError(f"{label}: tree {b58encode(output.tree)} is {kind}, the output says otherwise")
        closing: list[Account] = []
        for hash_ in tx.closed:
            account = self.accounts.get(hash_)
            if account is None:
                continue  # opened before the ledger's first slot, or in this transaction (below)
            if account.closed_by is not None:
                raise ValueError(f"transaction {name}: input {b58encode(hash_)} was already closed by "
                                 f"transaction {b58encode(account.closed_by)}")
            if any(a is account for a in closing):
                raise ValueError(f"transaction {name}: input {b58encode(hash_)} is closed twice")
            closing.append(account)
        for nullified in tx.nullified:
            if not 0 <= nullified.leaf_index < _CAPACITY:
                raise ValueError(f"transaction {name}: nullified leaf {nullified.leaf_index} is outside a tree "
                                 f"of height {HEIGHT}")
        for update in tx.address_updates:
            where = f"transaction {name}: address tree {b58encode(update.tree)} element {update.index}"
            if update.tree != self.address_tree_key:
                raise ValueError(f"{where}: the reference serves one address tree, "
                                 f"{b58encode(self.address_tree_key)}")
            if not (0 <= update.index < _CAPACITY and 0 <= update.value < _ADDRESS_BOUND
                    and 0 <= update.next_value < _ADDRESS_BOUND and 0 <= update.next_index < _CAPACITY):
                raise ValueError(f"{where}: value, next value or an index is out of range")
            if element_leaf(update.value, update.next_index, update.next_value) != update.hash:
                raise ValueError(f"{where}: the event's leaf hash is not Poseidon(value, next_index, next_value)")
        return closing

    def _commit(self, tx: LedgerTransaction, closing: list[Account]) -> Transaction:
        writes = self._writes
        assert writes is not None
        record = Transaction(tx.signature, tx.slot, tx.block_time, tx.error)
        opened = []
        for output in tx.opened:
            account = Account(output.hash, output.lamports, output.leaf_index, output.owner, tx.slot, output.tree,
                              output.seq, output.address, output.data, output.discriminator, output.data_hash,
                              output.token, tx.signature, queue=output.queue)
            self.accounts[output.hash] = account
            if output.address is not None:
                self._by_address[output.address] = account
            self._index_live(account, +1)
            if output.queue is None:
                self._state_tree(output.tree)
                writes.state.setdefault(output.tree, []).append((output.leaf_index, output.hash, output.seq))
            else:
                self._batched_tree(output.tree, output.queue).queue_output(output.leaf_index, output.hash)
            opened.append(account)
        known = {account.hash for account in closing}
        for hash_ in tx.closed:  # an input opened earlier in this same transaction
            account = self.accounts.get(hash_)
            if hash_ not in known and account is not None and account.opened_by == tx.signature:
                closing.append(account)
                known.add(hash_)
        self.unknown_inputs += len(tx.closed) - len(known)
        for account in closing:
            account.closed_by = tx.signature
            self._index_live(account, -1)
        for nullified in tx.nullified:
            self._state_tree(nullified.tree)
            writes.state.setdefault(nullified.tree, []).append((nullified.leaf_index, _ZERO, nullified.seq))
        writes.address.extend(tx.address_updates)
        self._apply_queues(tx)
        for account in (*opened, *closing):
            self._index_signature(account, record)  # reads only .slot and .signature
        return Transaction(
            tx.signature, tx.slot, tx.block_time, tx.error,
            tuple(a.hash for a in opened), tuple(a.hash for a in closing),
            tuple(TokenBalanceChange.of(a) for a in closing if a.token is not None),
            tuple(TokenBalanceChange.of(a) for a in opened if a.token is not None),
            tx.uses_compression, None if tx.solana is None else dumps(tx.solana),
        )

    def _state_tree(self, key: bytes) -> NativeStateTree:
        tree = self.state_trees.get(key)
        if tree is None:
            tree = self.state_trees[key] = NativeStateTree()
        assert isinstance(tree, NativeStateTree)
        return tree

    def _batched_tree(self, key: bytes, queue: bytes | None) -> BatchedStateTree:
        tree = self.state_trees.get(key)
        if tree is None:
            if queue is None:
                raise ValueError(f"batched tree {b58encode(key)}: a spend or batch event names it before any "
                                 "output showed its queue")
            tree = self.state_trees[key] = BatchedStateTree(queue)
        if not isinstance(tree, BatchedStateTree):
            raise ValueError(f"tree {b58encode(key)} is a v1 tree, a batched-tree event names it")
        return tree

    def _apply_queues(self, tx: LedgerTransaction) -> None:
        """The batched trees' share of a transaction: queued nullifiers and addresses, then batch events."""
        for item in tx.queued_nullifiers:
            self._batched_tree(item.tree, None).queue_nullifier(item)
        for item in tx.queued_addresses:
            if item.queue_index is not None:  # a v1 tree's queue has no order: indexed-tree events empty it
                self.batched_address_trees.setdefault(item.tree, BatchedAddressQueue()).queue((item,))
        for event in tx.batch_updates:
            if event.kind == "address_append":
                self.batched_address_trees.setdefault(event.tree, BatchedAddressQueue()).apply(event)
            else:
                self._batched_tree(event.tree, event.queue).apply(event)
