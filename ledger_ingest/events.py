"""The borsh events the ZK Compression programs write through the noop program, and TokenData
(ledger-native.md, "Borsh layouts"), read with `borsh-construct`.

`PublicTransactionEvent` (a user transaction) and `MerkleTreeEvent` (a forester transaction) are
read from the start of the noop's data, as the indexers read them: bytes after the event are left
unread. `MerkleTreeEvent` variants 3–5 are the batched trees' `BatchEvent` (Light's
`program-libs/merkle-tree-metadata/src/events/batch.rs`). `TokenData` must consume its bytes exactly.
Every failure is an `EventError` saying which layout could not be read and where.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Literal

import construct
from borsh_construct import U8, U32, U64, Bool, CStruct, Option, Vec
from borsh_construct import Bytes as BorshBytes
from csi_conformance.ledger_crypto import TokenDataFields

__all__ = [
    "OUTPUT_COMPRESSED_ACCOUNT",
    "BatchEvent",
    "EventError",
    "IndexedElement",
    "IndexedTreeEvent",
    "IndexedUpdate",
    "NullifierEvent",
    "OutputCompressedAccount",
    "PublicTransactionEvent",
    "output_compressed_account",
    "parse_event",
    "parse_merkle_tree_event",
    "parse_public_transaction_event",
    "parse_token_data",
]


class EventError(ValueError):
    """Event or token data bytes that do not follow their borsh layout."""


_KEY = construct.Bytes(32)

_COMPRESSED_ACCOUNT_DATA = CStruct("discriminator" / construct.Bytes(8), "data" / BorshBytes, "data_hash" / _KEY)
_COMPRESSED_ACCOUNT = CStruct("owner" / _KEY, "lamports" / U64, "address" / Option(_KEY),
                              "data" / Option(_COMPRESSED_ACCOUNT_DATA))
OUTPUT_COMPRESSED_ACCOUNT = CStruct("compressed_account" / _COMPRESSED_ACCOUNT, "merkle_tree_index" / U8)
"""Borsh `OutputCompressedAccountWithPackedContext`, also in system instructions and `insert_into_queues`."""
_PUBLIC_TRANSACTION_EVENT = CStruct(
    "input_compressed_account_hashes" / Vec(_KEY),
    "output_compressed_account_hashes" / Vec(_KEY),
    "output_compressed_accounts" / Vec(OUTPUT_COMPRESSED_ACCOUNT),
    "output_leaf_indices" / Vec(U32),
    "sequence_numbers" / Vec(CStruct("pubkey" / _KEY, "seq" / U64)),
    "relay_fee" / Option(U64),
    "is_compress" / Bool,
    "compress_or_decompress_lamports" / Option(U64),
    "pubkey_array" / Vec(_KEY),
    "message" / Option(BorshBytes),
)
_NULLIFIER_EVENT = CStruct("id" / _KEY, "nullified_leaves_indices" / Vec(U64), "seq" / U64)
_ELEMENT = CStruct("value" / _KEY, "next_index" / U64, "next_value" / _KEY, "index" / U64)
_INDEXED_TREE_EVENT = CStruct(
    "id" / _KEY,
    "updates" / Vec(CStruct("new_low_element" / _ELEMENT, "new_low_element_hash" / _KEY,
                            "new_high_element" / _ELEMENT, "new_high_element_hash" / _KEY)),
    "seq" / U64,
)
_BATCH_EVENT = CStruct(
    "merkle_tree_pubkey" / _KEY, "batch_index" / U64, "zkp_batch_index" / U64, "zkp_batch_size" / U64,
    "old_next_index" / U64, "new_next_index" / U64, "new_root" / _KEY, "root_index" / U32,
    "sequence_number" / U64, "output_queue_pubkey" / Option(_KEY),
)
_BATCH_KINDS: dict[int, Literal["append", "nullify", "address_append"]] = {
    3: "append", 4: "nullify", 5: "address_append"}
_BATCH_NAMES = {3: "BatchAppend", 4: "BatchNullify", 5: "BatchAddressAppend"}
_TOKEN_DATA = CStruct("mint" / _KEY, "owner" / _KEY, "amount" / U64, "delegate" / Option(_KEY), "state" / U8,
                      "tlv" / Option(BorshBytes))
_TOKEN_STATES = ("initialized", "frozen")


@dataclass(frozen=True, slots=True)
class OutputCompressedAccount:
    owner: bytes
    lamports: int
    address: bytes | None
    discriminator: bytes | None
    """The 8 discriminator bytes as stored (the API's integer is their u64 little-endian)."""
    data: bytes | None
    data_hash: bytes | None
    merkle_tree_index: int


@dataclass(frozen=True, slots=True)
class PublicTransactionEvent:
    input_hashes: tuple[bytes, ...]
    output_hashes: tuple[bytes, ...]
    output_accounts: tuple[OutputCompressedAccount, ...]
    output_leaf_indices: tuple[int, ...]
    sequence_numbers: tuple[tuple[bytes, int], ...]
    relay_fee: int | None
    is_compress: bool
    compress_or_decompress_lamports: int | None
    pubkey_array: tuple[bytes, ...]
    message: bytes | None


@dataclass(frozen=True, slots=True)
class NullifierEvent:
    """MerkleTreeEvent V2: leaves `leaf_indices[i]` of state tree `tree` become zero at seq `seq + i`."""

    tree: bytes
    leaf_indices: tuple[int, ...]
    seq: int


@dataclass(frozen=True, slots=True)
class IndexedElement:
    value: int
    next_index: int
    next_value: int
    index: int


@dataclass(frozen=True, slots=True)
class IndexedUpdate:
    new_low: IndexedElement
    new_low_hash: bytes
    new_high: IndexedElement
    new_high_hash: bytes


@dataclass(frozen=True, slots=True)
class IndexedTreeEvent:
    """MerkleTreeEvent V3: address-tree updates, the first at seq `seq`, each element one more."""

    tree: bytes
    updates: tuple[IndexedUpdate, ...]
    seq: int


@dataclass(frozen=True, slots=True)
class BatchEvent:
    """MerkleTreeEvent 3 (append), 4 (nullify) or 5 (address_append): a forester's batch on a batched tree.

    `[old_next_index, new_next_index)` are leaf indices for `append` (queue = the output queue), input-queue
    indices for `nullify` and address-tree leaf indices (starting at 1) for `address_append`. The tree's
    root becomes `new_root`, at `root_index` of its root history, with sequence number `seq`.
    """

    kind: Literal["append", "nullify", "address_append"]
    tree: bytes
    batch_index: int
    zkp_batch_index: int
    zkp_batch_size: int
    old_next_index: int
    new_next_index: int
    new_root: bytes
    root_index: int
    seq: int
    queue: bytes | None


def parse_event(layout: construct.Construct, data: bytes, what: str, *, exact: bool = False) -> construct.Container:
    """Read `data` with a borsh layout; `EventError` naming `what` when it does not fit (or, with
    `exact`, leaves bytes over)."""
    stream = io.BytesIO(data)
    try:
        value = layout.parse_stream(stream)
    except (construct.ConstructError, ValueError) as exc:
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise EventError(f"{what} cannot be read from {len(data)} bytes: {reason}") from None
    if exact and stream.tell() != len(data):
        raise EventError(f"{what} takes {stream.tell()} of its {len(data)} bytes: "
                         f"{len(data) - stream.tell()} bytes are left over")
    return value


def output_compressed_account(item: construct.Container) -> OutputCompressedAccount:
    """An `OUTPUT_COMPRESSED_ACCOUNT` as read, as a plain value."""
    account = item.compressed_account
    payload = account.data
    return OutputCompressedAccount(
        account.owner, account.lamports, account.address,
        None if payload is None else payload.discriminator, None if payload is None else payload.data,
        None if payload is None else payload.data_hash, item.merkle_tree_index,
    )


def parse_public_transaction_event(data: bytes) -> PublicTransactionEvent:
    event = parse_event(_PUBLIC_TRANSACTION_EVENT, data, "PublicTransactionEvent")
    outputs = [output_compressed_account(item) for item in event.output_compressed_accounts]
    return PublicTransactionEvent(
        tuple(event.input_compressed_account_hashes), tuple(event.output_compressed_account_hashes),
        tuple(outputs), tuple(event.output_leaf_indices),
        tuple((entry.pubkey, entry.seq) for entry in event.sequence_numbers),
        event.relay_fee, event.is_compress, event.compress_or_decompress_lamports, tuple(event.pubkey_array),
        event.message,
    )


def _element(raw: construct.Container) -> IndexedElement:
    return IndexedElement(int.from_bytes(raw.value, "big"), raw.next_index, int.from_bytes(raw.next_value, "big"),
                          raw.index)


def parse_merkle_tree_event(data: bytes) -> NullifierEvent | IndexedTreeEvent | BatchEvent:
    """A forester's MerkleTreeEvent: V2 (nullifier), V3 (indexed tree) or a batch event (3–5); V1 is
    not indexed."""
    if not data:
        raise EventError("MerkleTreeEvent cannot be read from 0 bytes")
    tag, body = data[0], data[1:]
    if tag == 1:
        event = parse_event(_NULLIFIER_EVENT, body, "MerkleTreeEvent V2 (nullifier)")
        return NullifierEvent(event.id, tuple(event.nullified_leaves_indices), event.seq)
    if tag == 2:
        event = parse_event(_INDEXED_TREE_EVENT, body, "MerkleTreeEvent V3 (indexed tree update)")
        updates = tuple(IndexedUpdate(_element(u.new_low_element), u.new_low_element_hash,
                                      _element(u.new_high_element), u.new_high_element_hash) for u in event.updates)
        return IndexedTreeEvent(event.id, updates, event.seq)
    if tag in _BATCH_KINDS:
        event = parse_event(_BATCH_EVENT, body, f"MerkleTreeEvent {tag} ({_BATCH_NAMES[tag]})")
        return BatchEvent(_BATCH_KINDS[tag], event.merkle_tree_pubkey, event.batch_index, event.zkp_batch_index,
                          event.zkp_batch_size, event.old_next_index, event.new_next_index, event.new_root,
                          event.root_index, event.sequence_number, event.output_queue_pubkey)
    if tag == 0:
        raise EventError("MerkleTreeEvent V1 (changelog) is not indexed: expected a nullifier (V2), an "
                         "indexed tree update (V3) or a batch event (3-5)")
    raise EventError(f"MerkleTreeEvent has unknown variant tag {tag}")


def parse_token_data(data: bytes) -> TokenDataFields:
    """Borsh TokenData of a compressed token account; it must consume the bytes exactly."""
    token = parse_event(_TOKEN_DATA, data, "TokenData", exact=True)
    if token.state >= len(_TOKEN_STATES):
        raise EventError(f"TokenData state must be 0 (initialized) or 1 (frozen), got {token.state}")
    return TokenDataFields(token.mint, token.owner, token.amount, token.delegate, _TOKEN_STATES[token.state],
                           token.tlv)
