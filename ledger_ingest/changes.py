"""From events to ledger changes (ledger-native.md, "From events to state").

`transaction_changes` turns one decoded transaction into a `LedgerTransaction`: plain values
that say what the transaction opened (accounts with their hash, tree, leaf index and seq, all
taken as the chain gives them), which account hashes it closed, which state-tree leaves a
forester nullified and which address-tree elements it wrote, and for batched trees what entered
their queues and which batch events emptied them. A failed transaction changes nothing. Nothing
is applied here: the reference server applies the changes to its ledger.

A transaction from which a state change cannot be read is an `IngestError` naming it: an event or
`insert_into_queues` that does not decode, an unknown MerkleTreeEvent, or a light system invoke
that carries compressed state with neither an `insert_into_queues` nor a noop event after it.
Light system instructions that write no state are not errors: one that only parks its state in a
CPI context account (`set_context` / `first_set_context`), one with nothing to insert (read-only
accounts and addresses only), and every other instruction of the programs (tree and queue
initialisation, registry and forester bookkeeping, `create_cpi_context_account`…), which an indexer
does not read.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from csi_conformance.groundwork.base58 import b58encode
from csi_conformance.ledger_crypto import TOKEN_DISCRIMINATOR, TOKEN_PROGRAM_ID, TokenDataFields, poseidon
from csi_conformance.ledger_ingest.decode import DecodedTransaction, IngestError
from csi_conformance.ledger_ingest.events import (
    BatchEvent,
    EventError,
    IndexedElement,
    IndexedTreeEvent,
    NullifierEvent,
    OutputCompressedAccount,
    PublicTransactionEvent,
    parse_merkle_tree_event,
    parse_public_transaction_event,
    parse_token_data,
)
from csi_conformance.ledger_ingest.queues import InsertIntoQueues, parse_insert_into_queues
from csi_conformance.ledger_ingest.recognize import LIGHT_SYSTEM_PROGRAM_ID, QueueInsertion, Unexplained, recognize
from csi_conformance.ledger_ingest.system import parse_system_instruction

__all__ = [
    "AddressUpdate",
    "BatchEvent",
    "LedgerTransaction",
    "Nullification",
    "OutputAccount",
    "QueuedAddress",
    "QueuedNullifier",
    "transaction_changes",
]

_TOKEN_DISCRIMINATOR_BYTES = TOKEN_DISCRIMINATOR.to_bytes(8, "little")
_TOKEN_DISCRIMINATORS_WITH_EXTENSIONS = frozenset(bytes(7) + bytes([n]) for n in (3, 4))
"""Token accounts of Light's newer token program (discriminator bytes `00…03`, `00…04`), whose data ends
with `Option<Vec<ExtensionStruct>>` (Photon's `C_TOKEN_DISCRIMINATOR_V2`, `_V3`)."""


@dataclass(frozen=True, slots=True)
class OutputAccount:
    """An account a transaction opened, with the values the chain assigned it."""

    hash: bytes
    tree: bytes
    """The state tree (a batched tree's `bmt…`, never its output queue)."""
    leaf_index: int
    seq: int | None
    """The tree's sequence number the write carries (v1 trees); None for an account written to a
    batched tree's output queue, which no sequence number orders."""
    owner: bytes
    lamports: int
    address: bytes | None
    discriminator: int | None
    data: bytes | None
    data_hash: bytes | None
    token: TokenDataFields | None
    queue: bytes | None = None
    """The output queue the account waits in until a batch append (batched trees); None for a v1 tree."""


@dataclass(frozen=True, slots=True)
class QueuedNullifier:
    """A spend of a batched-tree account: `nullifier` enters the tree's input queue at `queue_index`.

    `nullifier` = Poseidon(account_hash, leaf_index as 32 bytes big-endian, tx_hash); a BatchNullify
    later writes it at leaf `leaf_index`. `prove_by_index`: the account was still in the output queue
    (its value there was zeroed).
    """

    tree: bytes
    queue_index: int
    account_hash: bytes
    leaf_index: int
    nullifier: bytes
    prove_by_index: bool
    tx_hash: bytes


@dataclass(frozen=True, slots=True)
class QueuedAddress:
    """A new address written to the queue of address tree `tree`.

    Batched address tree: `queue_index` is its position in the tree's own queue (a BatchAddressAppend
    with `[old, new)` inserts queue indices `[old - 1, new - 1)`). v1 address tree: the queue is a
    separate hash set with no order, `queue_index` is None, and an indexed-tree update (MerkleTreeEvent
    V3) later inserts it.
    """

    tree: bytes
    queue_index: int | None
    address: bytes


@dataclass(frozen=True, slots=True)
class Nullification:
    """A forester zeroed state-tree leaf `leaf_index` of `tree` at `seq`."""

    tree: bytes
    leaf_index: int
    seq: int


@dataclass(frozen=True, slots=True)
class AddressUpdate:
    """Address-tree element `index` of `tree` became (value, next_index, next_value), leaf `hash`, at `seq`."""

    tree: bytes
    index: int
    value: int
    next_index: int
    next_value: int
    hash: bytes
    seq: int


@dataclass(frozen=True, slots=True)
class LedgerTransaction:
    """What one transaction does to the ledger; all empty for a failed or unrelated one."""

    signature: bytes
    slot: int
    block_time: int
    error: str | None
    uses_compression: bool
    voting: bool
    opened: tuple[OutputAccount, ...] = ()
    closed: tuple[bytes, ...] = ()
    nullified: tuple[Nullification, ...] = ()
    address_updates: tuple[AddressUpdate, ...] = ()
    queued_nullifiers: tuple[QueuedNullifier, ...] = ()
    queued_addresses: tuple[QueuedAddress, ...] = ()
    batch_updates: tuple[BatchEvent, ...] = ()
    solana: Mapping[str, Any] | None = field(default=None, compare=False, repr=False)
    """The transaction as Solana's `getTransaction` answers it, kept for a transaction that used compression
    (an indexer serves it back with its compression info); None for any other."""

    @property
    def indexed(self) -> bool:
        """Whether an indexer records it at all: voting transactions without compression are not."""
        return self.uses_compression or not self.voting

    @property
    def signature_text(self) -> str:
        return b58encode(self.signature)


def transaction_changes(tx: DecodedTransaction, *, source: str | None = None) -> LedgerTransaction:
    """The ledger changes of a decoded transaction; `IngestError` naming it when its state cannot be read."""
    found = recognize(tx)
    if tx.error is not None:
        return LedgerTransaction(tx.signature, tx.slot, tx.block_time, tx.error, found.uses_compression,
                                 found.voting)
    changes = _Changes()
    try:
        unread = [problem for problem in map(_unread, found.unexplained) if problem]
        if unread:
            raise EventError("; ".join(unread))
        for number, (kind, event) in enumerate(found.events):
            if isinstance(event, QueueInsertion):
                changes.add_insertion(event)
            elif kind == "user":
                user_event = parse_public_transaction_event(event)
                changes.closed.extend(user_event.input_hashes)
                changes.opened.extend(_outputs(user_event, number))
            else:
                changes.add_tree_event(parse_merkle_tree_event(event))
    except EventError as exc:
        raise IngestError(str(exc), signature=tx.signature_text, source=source) from None
    return LedgerTransaction(
        tx.signature, tx.slot, tx.block_time, None, found.uses_compression, found.voting, tuple(changes.opened),
        tuple(changes.closed), tuple(changes.nullified), tuple(changes.addresses), tuple(changes.queued_nullifiers),
        tuple(changes.queued_addresses), tuple(changes.batch_updates), tx.solana if found.uses_compression else None,
    )


def _unread(item: Unexplained) -> str | None:
    """Why a light system invoke or `insert_into_queues` that no event accounts for hides state, if it does."""
    if item.program != LIGHT_SYSTEM_PROGRAM_ID:
        return (f"{item.where}: insert_into_queues is not executed by a light system instruction before it (after "
                "a fee transfer), or its second account is not the registered program PDA: its queue insertions "
                "cannot be read")
    try:
        system = parse_system_instruction(item.data)
    except EventError as exc:
        return f"{item.where}: {exc}"
    if system.carries_state and not system.writes_cpi_context:
        return (f"{item.where}: light system {system.kind} carries compressed state, but neither an "
                "insert_into_queues nor a noop event follows it")
    return None


class _Changes:
    """The changes read so far from one transaction's events, in their order."""

    def __init__(self) -> None:
        self.opened: list[OutputAccount] = []
        self.closed: list[bytes] = []
        self.nullified: list[Nullification] = []
        self.addresses: list[AddressUpdate] = []
        self.queued_nullifiers: list[QueuedNullifier] = []
        self.queued_addresses: list[QueuedAddress] = []
        self.batch_updates: list[BatchEvent] = []

    def add_tree_event(self, event: NullifierEvent | IndexedTreeEvent | BatchEvent) -> None:
        if isinstance(event, IndexedTreeEvent):
            self.addresses.extend(_address_updates(event))
        elif isinstance(event, BatchEvent):
            self.batch_updates.append(event)
        else:
            self.nullified.extend(Nullification(event.tree, leaf, event.seq + i)
                                  for i, leaf in enumerate(event.leaf_indices))

    def add_insertion(self, insertion: QueueInsertion) -> None:
        """What one `insert_into_queues` wrote, the accounts' contents taken from its system instruction."""
        try:
            queues = parse_insert_into_queues(insertion.data, insertion.accounts)
        except EventError as exc:
            raise EventError(f"{insertion.where}: {exc}") from None
        try:
            system = parse_system_instruction(insertion.system_data)
        except EventError as exc:
            raise EventError(f"{insertion.system_where}: {exc}") from None
        self.opened.extend(_queue_outputs(insertion, queues, system.outputs, system.system_accounts))
        self.closed.extend(entry.account_hash for entry in queues.nullifiers)
        next_index = {entry.tree: entry.seq for entry in queues.input_sequence_numbers
                      if entry.tree_type == "state_v2"}
        for entry in queues.nullifiers:
            if entry.tree not in next_index:
                continue  # a v1 tree: the forester's nullifier event zeroes the leaf later
            index = next_index[entry.tree]
            next_index[entry.tree] = index + 1
            nullifier = poseidon(entry.account_hash, entry.leaf_index.to_bytes(32, "big"), queues.tx_hash)
            self.queued_nullifiers.append(QueuedNullifier(entry.tree, index, entry.account_hash, entry.leaf_index,
                                                          nullifier, entry.prove_by_index, queues.tx_hash))
        address_index = {entry.tree: entry.seq for entry in queues.address_sequence_numbers
                         if entry.tree_type == "address_v2"}
        for entry in queues.addresses:
            index = address_index.get(entry.tree)
            if index is not None:
                address_index[entry.tree] = index + 1
            self.queued_addresses.append(QueuedAddress(entry.tree, index, entry.address))


def _queue_outputs(insertion: QueueInsertion, queues: InsertIntoQueues, own: tuple[OutputCompressedAccount, ...],
                   system_accounts: int) -> list[OutputAccount]:
    """The outputs: CPI-context ones first, then the executing instruction's, paired with the leaves."""
    where = insertion.where
    accounts = (*queues.cpi_context_outputs, *own)
    if not len(accounts) == len(queues.leaves) == len(queues.output_leaf_indices):
        raise EventError(f"{where}: {len(accounts)} output accounts ({len(queues.cpi_context_outputs)} from a CPI "
                         f"context), {len(queues.leaves)} leaves and {len(queues.output_leaf_indices)} leaf indices "
                         "do not pair up")
    pubkeys = insertion.system_accounts[system_accounts:]
    entries = {entry.queue: entry for entry in queues.output_sequence_numbers}
    seqs = {entry.tree: entry.seq for entry in queues.output_sequence_numbers if entry.tree_type == "state_v1"}
    outputs = []
    for k, (account, leaf, leaf_index) in enumerate(zip(accounts, queues.leaves, queues.output_leaf_indices,
                                                        strict=True)):
        if k >= len(queues.cpi_context_outputs):
            named = pubkeys[account.merkle_tree_index] if account.merkle_tree_index < len(pubkeys) else None
            if named != leaf.account:
                raise EventError(f"{where}, output {k}: the system instruction ({insertion.system_where}) names "
                                 f"{b58encode(named) if named else 'no account'} as its tree or queue, "
                                 f"insert_into_queues appends to {b58encode(leaf.account)}")
        entry = entries.get(leaf.account)
        if entry is None or entry.tree_type not in ("state_v1", "state_v2"):
            raise EventError(f"{where}, output {k}: no state-tree sequence number for {b58encode(leaf.account)}")
        seq = queue = None
        if entry.tree_type == "state_v1":
            seq = seqs[entry.tree]
            seqs[entry.tree] = seq + 1
        else:
            queue = entry.queue
        outputs.append(_output(account, leaf.hash, entry.tree, leaf_index, seq, queue, f"{where}, output {k}"))
    return outputs


def _outputs(event: PublicTransactionEvent, number: int) -> list[OutputAccount]:
    counts = {len(event.output_accounts), len(event.output_hashes), len(event.output_leaf_indices)}
    if len(counts) != 1:
        raise EventError(f"event {number}: {len(event.output_accounts)} output accounts, "
                         f"{len(event.output_hashes)} output hashes and {len(event.output_leaf_indices)} "
                         "leaf indices do not pair up")
    seqs = dict(event.sequence_numbers)
    outputs = []
    for k, (account, hash_, leaf_index) in enumerate(zip(event.output_accounts, event.output_hashes,
                                                         event.output_leaf_indices, strict=True)):
        if account.merkle_tree_index >= len(event.pubkey_array):
            raise EventError(f"event {number}, output {k}: merkle tree index {account.merkle_tree_index} is "
                             f"outside the event's {len(event.pubkey_array)} pubkeys")
        tree = event.pubkey_array[account.merkle_tree_index]
        if tree not in seqs:
            raise EventError(f"event {number}, output {k}: no sequence number for tree {b58encode(tree)}")
        seq = seqs[tree]
        seqs[tree] = seq + 1
        outputs.append(_output(account, hash_, tree, leaf_index, seq, None, f"event {number}, output {k}"))
    return outputs


def _output(account: OutputCompressedAccount, hash_: bytes, tree: bytes, leaf_index: int, seq: int | None,
            queue: bytes | None, where: str) -> OutputAccount:
    token = None
    discriminator = None
    if account.discriminator is not None:
        discriminator = int.from_bytes(account.discriminator, "little")
        if account.owner == TOKEN_PROGRAM_ID and (account.discriminator == _TOKEN_DISCRIMINATOR_BYTES or
                                                  account.discriminator in _TOKEN_DISCRIMINATORS_WITH_EXTENSIONS):
            try:
                token = _token_data(account.discriminator, account.data)
            except EventError as exc:
                raise EventError(f"{where} (token account {b58encode(hash_)}): {exc}") from None
    return OutputAccount(hash_, tree, leaf_index, seq, account.owner, account.lamports, account.address,
                         discriminator, account.data, account.data_hash, token, queue)


def _token_data(discriminator: bytes, data: bytes) -> TokenDataFields:
    """A token account's data. With extensions, `tlv` is the bytes after its option tag as they stand (the
    borsh `Vec<ExtensionStruct>`), as Photon's `TokenData::parse` keeps them; the older layout reads exactly."""
    at = 72 + (33 if data[72:73] == b"\x01" else 1) + 1  # mint, owner, amount; delegate; state
    if discriminator == _TOKEN_DISCRIMINATOR_BYTES or data[at:at + 1] != b"\x01":
        return parse_token_data(data)
    return replace(parse_token_data(data[:at] + b"\x00"), tlv=data[at + 1:] or None)


def _address_updates(event: IndexedTreeEvent) -> list[AddressUpdate]:
    updates = []
    seq = event.seq
    for update in event.updates:
        for element, hash_ in ((update.new_low, update.new_low_hash), (update.new_high, update.new_high_hash)):
            updates.append(_address_update(event.tree, element, hash_, seq))
            seq += 1
    return updates


def _address_update(tree: bytes, element: IndexedElement, hash_: bytes, seq: int) -> AddressUpdate:
    return AddressUpdate(tree, element.index, element.value, element.next_index, element.next_value, hash_, seq)
