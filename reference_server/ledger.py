"""The in-memory ledger: compressed accounts, transactions, trees and the indexes the API reads.

State changes only by applying transactions (`Ledger.apply`): a transaction opens accounts
(their hashes are appended to a state tree, their addresses inserted into the address tree)
and closes accounts (their leaves are nullified). A failed transaction changes nothing; it is
kept only for getLatestNonVotingSignatures. Within one transaction, appends come first, then
nullifications, each one tree operation, so an account's `seq` is exact (ledger-facts.md).

Tree work is deferred to the end of a `bulk()` block: leaf indices, hashes and sequence
numbers are assigned as transactions arrive, then every tree is written once with
`write_many` (appends and nullifications together) / `insert_many`, which costs O(n) hashes
instead of O(n·height). `apply` outside
a block is a block of one transaction. Queries must not run inside an open block.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field

from csi_conformance.groundwork.base58 import b58decode, b58encode
from csi_conformance.ledger_crypto import AddressTree, StateTree, account_hash_inputs, hashing_pool, poseidon
from csi_conformance.reference_server.batched import BatchedAddressQueue, BatchedStateTree
from csi_conformance.reference_server.pagination import SignatureKey, SortedIndex
from csi_conformance.reference_server.records import (
    Account,
    NewAccount,
    PendingTransaction,
    TokenBalanceChange,
    Transaction,
)

__all__ = ["DEFAULT_ADDRESS_TREE", "DEFAULT_STATE_TREE", "Ledger"]

DEFAULT_STATE_TREE = b58decode("smt1NamzXdq4AMqS2fS2F1i5KTYPZRhoHgWx38d8WsT", length=32)
DEFAULT_ADDRESS_TREE = b58decode("amt1Ayt45jfbdw5YSo7iz6WZxUmnZsQTYXy82hVwyC2", length=32)
_ADDRESS_BOUND = 2**248
_POOL_MIN = 65_536
"""Tree writes of at least this many leaves are hashed with worker processes (`hashing_pool`)."""


@dataclass
class _Deferred:
    """Tree writes staged by a bulk block, plus each tree's sequence number as if done."""

    appends: dict[bytes, list[bytes]] = field(default_factory=dict)
    nullify: dict[bytes, list[int]] = field(default_factory=dict)
    seq: dict[bytes, int] = field(default_factory=dict)
    addresses: list[int] = field(default_factory=list)
    address_set: set[int] = field(default_factory=set)
    known: dict[tuple[bytes, ...], bytes] = field(default_factory=dict)
    """Account hashes computed ahead, by their Poseidon inputs; taken out as they are used."""


class Ledger:
    """Accounts, transactions, one state tree per tree pubkey, one address tree, and indexes."""

    def __init__(
        self, *, state_trees: Sequence[bytes] = (DEFAULT_STATE_TREE,), address_tree: bytes = DEFAULT_ADDRESS_TREE
    ) -> None:
        if not state_trees:
            raise ValueError("a ledger needs at least one state tree")
        self.state_trees: dict[bytes, StateTree] = {bytes(key): StateTree() for key in state_trees}
        self.address_tree_key = bytes(address_tree)
        self.address_tree = AddressTree()
        self.batched_address_trees: dict[bytes, BatchedAddressQueue] = {}
        """Batched address trees (height 40) by pubkey, with their queues (a ledger read from today's chain)."""
        self.indexed_slot = 0
        self.tip_slot = 0
        self.accounts: dict[bytes, Account] = {}
        self.transactions: dict[bytes, Transaction] = {}
        self._by_address: dict[bytes, Account] = {}
        self._lamports_by_owner: dict[bytes, int] = {}
        self._token_balances: dict[bytes, dict[bytes, list[int]]] = {}  # owner -> mint -> [sum, count]
        self.by_owner = SortedIndex()  # account owner -> live account hashes
        self.by_owner_leaf = SortedIndex()  # account owner -> live (leaf index, hash): Photon 366a15b's order
        self.tokens_by_owner = SortedIndex()  # token owner -> live mint ‖ hash
        self.tokens_by_delegate = SortedIndex()  # delegate -> live mint ‖ hash
        self.signatures_by_address = SortedIndex()
        self.signatures_by_owner = SortedIndex()
        self.signatures_by_token_owner = SortedIndex()
        self.signatures = SortedIndex()  # "succeeded" and "all" (failed ones too)
        self._deferred: _Deferred | None = None

    # ------------------------------------------------------------------ reading

    def account(self, hash_: bytes) -> Account | None:
        """The account with this hash, live or closed."""
        return self.accounts.get(hash_)

    def batched_trees(self) -> tuple[bytes, ...]:
        """The batched (v2) state trees of this ledger."""
        return tuple(key for key, tree in self.state_trees.items() if isinstance(tree, BatchedStateTree))

    def partial_trees(self) -> tuple[bytes, ...]:
        """Trees whose every leaf this ledger has not seen: none for a ledger built from its first transaction."""
        return ()

    def in_output_queue(self, account: Account) -> bool:
        """Whether `account` waits in a batched tree's output queue: it has a leaf index but no leaf in the tree
        yet, so only a proof by index can show it exists."""
        tree = self.state_trees.get(account.tree)
        return isinstance(tree, BatchedStateTree) and tree.in_queue(account.leaf_index)

    def live_by_hash(self, hash_: bytes) -> Account | None:
        account = self.accounts.get(hash_)
        return None if account is None or account.closed else account

    def live_by_address(self, address: bytes) -> Account | None:
        account = self._by_address.get(address)
        return None if account is None or account.closed else account

    def address_taken(self, address: bytes) -> bool:
        """Whether an account has held `address`: taken for good, even while it waits in the address queue
        for a forester to insert it into the tree (a ledger read from the chain), and after the account closed."""
        return address in self._by_address

    def lamports_of_owner(self, owner: bytes) -> int:
        return self._lamports_by_owner.get(owner, 0)

    def token_balances(self, owner: bytes) -> dict[bytes, int]:
        """Σ amounts per mint over the owner's live token accounts (mints with one or more)."""
        return {mint: total for mint, (total, count) in self._token_balances.get(owner, {}).items() if count}

    def transaction(self, signature: bytes) -> Transaction | None:
        return self.transactions.get(signature)

    def latest_signatures(self, *, include_failed: bool) -> Sequence[SignatureKey]:
        return self.signatures.keys("all" if include_failed else "succeeded")

    # ------------------------------------------------------------------ slots

    def set_tip(self, slot: int) -> None:
        """The chain's newest slot, which getIndexerHealth compares the indexed slot with."""
        if slot < self.indexed_slot:
            raise ValueError(f"tip slot {slot} is below the indexed slot {self.indexed_slot}")
        self.tip_slot = slot

    def advance_to(self, slot: int) -> None:
        """Mark slots up to ``slot`` indexed (slots without compression transactions)."""
        if slot < self.indexed_slot:
            raise ValueError(f"slot {slot} goes backwards: slot {self.indexed_slot} is already indexed")
        self.indexed_slot = slot
        self.tip_slot = max(self.tip_slot, slot)

    # ------------------------------------------------------------------ writing

    @contextmanager
    def bulk(self, *, known_hashes: dict[tuple[bytes, ...], bytes] | None = None) -> Iterator[Ledger]:
        """Apply many transactions, writing the trees once at the end (O(n) hashes).

        ``known_hashes`` maps Poseidon inputs (`account_hash_inputs`) to their hash, computed
        ahead in a batch (`poseidon_many`, over worker processes); an account whose inputs are
        there is not hashed again, any other is. The dict is emptied as entries are used. A
        nested block joins the outer one and ignores its own ``known_hashes``.

        The garbage collector is paused for the block: a large build allocates millions of
        long-lived objects, and every collection would walk them all again (a fifth of the
        build time at 100k accounts).
        """
        if self._deferred is not None:
            yield self
            return
        self._deferred = _Deferred(known=known_hashes if known_hashes is not None else {})
        collecting = gc.isenabled()
        gc.disable()
        try:
            yield self
        finally:
            deferred, self._deferred = self._deferred, None
            try:
                self._flush(deferred)
            finally:
                if collecting:
                    gc.enable()

    def apply(self, tx: PendingTransaction) -> Transaction:
        """Apply one transaction; ValueError, before any change, when it cannot apply."""
        if self._deferred is None:
            with self.bulk():
                return self.apply(tx)
        if tx.signature in self.transactions:
            raise ValueError(f"transaction {b58encode(tx.signature)} is already applied")
        if tx.slot < self.indexed_slot:
            raise ValueError(f"transaction {b58encode(tx.signature)}: slot {tx.slot} goes backwards "
                             f"(slot {self.indexed_slot} is already indexed)")
        if tx.error is not None:
            done = Transaction(tx.signature, tx.slot, tx.block_time, tx.error)
        else:
            closing = self._check(tx)
            done = self._commit(tx, closing)
        self.transactions[tx.signature] = done
        self.signatures.add("all", done.key)
        if tx.error is None:
            self.signatures.add("succeeded", done.key)
        self.advance_to(tx.slot)
        return done

    def _check(self, tx: PendingTransaction) -> list[Account]:
        """Everything that could make ``tx`` fail, checked before it changes anything."""
        closing: list[Account] = []
        for hash_ in tx.close:
            account = self.accounts.get(hash_)
            if account is None:
                raise ValueError(f"cannot close unknown account {b58encode(hash_)}")
            if account.closed or any(a is account for a in closing):
                raise ValueError(f"cannot close account {b58encode(hash_)}: it is already closed")
            closing.append(account)
        carried = {a.address for a in closing if a.address is not None}
        seen: set[bytes] = set()
        for new in tx.open:
            if new.tree not in self.state_trees:
                raise ValueError(f"unknown state tree {b58encode(new.tree)}")
            address = new.address
            if address is None:
                continue
            if address in seen:
                raise ValueError(f"address {b58encode(address)} is opened twice by one transaction")
            seen.add(address)
            if address in carried:
                continue  # the account is updated: its address moves to the new account
            value = int.from_bytes(address, "big")
            if not 0 < value < _ADDRESS_BOUND:
                raise ValueError(f"address {b58encode(address)} is not below 2^248 (byte 0 must be 0)")
            if value in self.address_tree or value in self._deferred.address_set:
                raise ValueError(f"address {b58encode(address)} already exists")
        return closing

    def _commit(self, tx: PendingTransaction, closing: list[Account]) -> Transaction:
        deferred = self._deferred
        carried = {a.address for a in closing if a.address is not None}
        opened = [self._open(new, tx, deferred) for new in tx.open]
        for account in opened:
            if account.address is not None and account.address not in carried:
                value = int.from_bytes(account.address, "big")
                deferred.addresses.append(value)
                deferred.address_set.add(value)
        for account in closing:
            self._close(account, tx, deferred)
        for account in (*opened, *closing):
            self._index_signature(account, tx)
        return Transaction(
            tx.signature, tx.slot, tx.block_time, None,
            tuple(a.hash for a in opened), tuple(a.hash for a in closing),
            tuple(TokenBalanceChange.of(a) for a in closing if a.token is not None),
            tuple(TokenBalanceChange.of(a) for a in opened if a.token is not None),
        )

    def _open(self, new: NewAccount, tx: PendingTransaction, deferred: _Deferred) -> Account:
        tree = self.state_trees[new.tree]
        leaves = deferred.appends.setdefault(new.tree, [])
        leaf_index = tree.next_index + len(leaves)
        seq = deferred.seq.get(new.tree, tree.seq) + 1
        deferred.seq[new.tree] = seq
        inputs = account_hash_inputs(
            owner=new.owner, leaf_index=leaf_index, tree=new.tree, lamports=new.lamports,
            address=new.address, discriminator=new.discriminator, data_hash=new.data_hash,
        )
        hash_ = deferred.known.pop(inputs, None) or poseidon(*inputs)
        leaves.append(hash_)
        account = Account(hash_, new.lamports, leaf_index, new.owner, tx.slot, new.tree, seq, new.address,
                          new.data, new.discriminator, new.data_hash, new.token, tx.signature)
        self.accounts[hash_] = account
        if new.address is not None:
            self._by_address[new.address] = account
        self._index_live(account, +1)
        return account

    def _close(self, account: Account, tx: PendingTransaction, deferred: _Deferred) -> None:
        tree = self.state_trees[account.tree]
        deferred.nullify.setdefault(account.tree, []).append(account.leaf_index)
        deferred.seq[account.tree] = deferred.seq.get(account.tree, tree.seq) + 1
        account.closed_by = tx.signature
        self._index_live(account, -1)

    def _index_live(self, account: Account, sign: int) -> None:
        """Add (+1) or remove (-1) a live account from the owner, token and balance indexes."""
        change = self.by_owner.add if sign > 0 else self.by_owner.remove
        change(account.owner, account.hash)
        (self.by_owner_leaf.add if sign > 0 else self.by_owner_leaf.remove)(account.owner,
                                                                            (account.leaf_index, account.hash))
        self._lamports_by_owner[account.owner] = self._lamports_by_owner.get(account.owner, 0) + sign * account.lamports
        token = account.token
        if token is None:
            return
        key = token.mint + account.hash
        (self.tokens_by_owner.add if sign > 0 else self.tokens_by_owner.remove)(token.owner, key)
        if token.delegate is not None:
            (self.tokens_by_delegate.add if sign > 0 else self.tokens_by_delegate.remove)(token.delegate, key)
        totals = self._token_balances.setdefault(token.owner, {}).setdefault(token.mint, [0, 0])
        totals[0] += sign * token.amount
        totals[1] += sign

    def _index_signature(self, account: Account, tx: PendingTransaction) -> None:
        key = (tx.slot, tx.signature)
        self.signatures_by_owner.add(account.owner, key)
        if account.address is not None:
            self.signatures_by_address.add(account.address, key)
        if account.token is not None:
            self.signatures_by_token_owner.add(account.token.owner, key)

    def _flush(self, deferred: _Deferred) -> None:
        """Write the staged leaves, nullifications and addresses to the trees.

        A large write is shared with worker processes: it pays from about 65k leaves on.
        """
        leaves = sum(map(len, deferred.appends.values())) + len(deferred.addresses)
        with hashing_pool() if leaves >= _POOL_MIN else nullcontext():
            self._write_trees(deferred)

    def _write_trees(self, deferred: _Deferred) -> None:
        for key in {**deferred.appends, **deferred.nullify}:
            self.state_trees[key].write_many(appends=deferred.appends.get(key, ()),
                                             nullify=deferred.nullify.get(key, ()))
        for key, seq in deferred.seq.items():
            if self.state_trees[key].seq != seq:
                raise AssertionError(f"tree {b58encode(key)} reached seq {self.state_trees[key].seq}, expected {seq}")
        self.address_tree.insert_many(deferred.addresses)
