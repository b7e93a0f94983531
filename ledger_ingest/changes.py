"""From events to ledger changes (ledger-native.md, "From events to state").

`transaction_changes` turns one decoded transaction into a `LedgerTransaction`: plain values
that say what the transaction opened (accounts with their hash, tree, leaf index and seq, all
taken as the chain gives them), which account hashes it closed, which state-tree leaves a
forester nullified and which address-tree elements it wrote. A failed transaction changes
nothing. Nothing is applied here: the reference server applies the changes to its ledger.
"""

from __future__ import annotations

from dataclasses import dataclass

from ledger_crypto import TOKEN_DISCRIMINATOR, TOKEN_PROGRAM_ID, TokenDataFields, b58encode
from ledger_ingest.decode import DecodedTransaction, IngestError
from ledger_ingest.events import (
    EventError,
    IndexedElement,
    IndexedTreeEvent,
    PublicTransactionEvent,
    parse_merkle_tree_event,
    parse_public_transaction_event,
    parse_token_data,
)
from ledger_ingest.recognize import recognize

__all__ = ["AddressUpdate", "LedgerTransaction", "Nullification", "OutputAccount", "transaction_changes"]

_TOKEN_DISCRIMINATOR_BYTES = TOKEN_DISCRIMINATOR.to_bytes(8, "little")


@dataclass(frozen=True, slots=True)
class OutputAccount:
    """An account a transaction opened, with the values the chain assigned it."""

    hash: bytes
    tree: bytes
    leaf_index: int
    seq: int
    owner: bytes
    lamports: int
    address: bytes | None
    discriminator: int | None
    data: bytes | None
    data_hash: bytes | None
    token: TokenDataFields | None


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

    @property
    def indexed(self) -> bool:
        """Whether an indexer records it at all: voting transactions without compression are not."""
        return self.uses_compression or not self.voting

    @property
    def signature_text(self) -> str:
        return b58encode(self.signature)


def transaction_changes(tx: DecodedTransaction, *, source: str | None = None) -> LedgerTransaction:
    """The ledger changes of a decoded transaction; `IngestError` naming it when an event is unreadable."""
    found = recognize(tx)
    if tx.error is not None or not found.events:
        return LedgerTransaction(tx.signature, tx.slot, tx.block_time, tx.error, found.uses_compression,
                                 found.voting)
    opened: list[OutputAccount] = []
    closed: list[bytes] = []
    nullified: list[Nullification] = []
    addresses: list[AddressUpdate] = []
    try:
        for number, (kind, data) in enumerate(found.events):
            if kind == "user":
                event = parse_public_transaction_event(data)
                closed.extend(event.input_hashes)
                opened.extend(_outputs(event, number))
            else:
                tree_event = parse_merkle_tree_event(data)
                if isinstance(tree_event, IndexedTreeEvent):
                    addresses.extend(_address_updates(tree_event))
                else:
                    nullified.extend(Nullification(tree_event.tree, leaf, tree_event.seq + i)
                                     for i, leaf in enumerate(tree_event.leaf_indices))
    except EventError as exc:
        raise IngestError(str(exc), signature=tx.signature_text, source=source) from None
    return LedgerTransaction(tx.signature, tx.slot, tx.block_time, None, True, found.voting, tuple(opened),
                             tuple(closed), tuple(nullified), tuple(addresses))


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
        token = None
        discriminator = None
        if account.discriminator is not None:
            discriminator = int.from_bytes(account.discriminator, "little")
            if account.owner == TOKEN_PROGRAM_ID and account.discriminator == _TOKEN_DISCRIMINATOR_BYTES:
                try:
                    token = parse_token_data(account.data)
                except EventError as exc:
                    raise EventError(f"event {number}, output {k} (token account {b58encode(hash_)}): {exc}") from None
        outputs.append(OutputAccount(hash_, tree, leaf_index, seq, account.owner, account.lamports, account.address,
                                     discriminator, account.data, account.data_hash, token))
    return outputs


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
