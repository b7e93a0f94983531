"""Account compression's `insert_into_queues` instruction: what the light system program writes into
the trees' queues, read from the instruction data itself (user transactions of the newer system
program carry no noop event).

Layout (Light's `program-libs/compressed-account/src/instruction_data/insert_into_queues.rs`):
discriminator, u32 byte length, a packed little-endian zero-copy struct whose vectors have a **u8**
length, then a borsh `Vec<OutputCompressedAccountWithPackedContext>`: the outputs earlier CPIs
parked in a CPI context, which come before the executing instruction's own. Every `*_index` counts
the instruction's accounts after its first two (authority, registered program PDA). Sequence-number
slots left unused are all zero and are dropped. Read with `construct`; the data must be consumed
exactly.
"""

from __future__ import annotations

from dataclasses import dataclass

import construct
from borsh_construct import Vec
from csi_conformance.ledger_ingest.events import (
    OUTPUT_COMPRESSED_ACCOUNT,
    EventError,
    OutputCompressedAccount,
    output_compressed_account,
    parse_event,
)

__all__ = [
    "INSERT_INTO_QUEUES",
    "TREE_TYPES",
    "InsertIntoQueues",
    "QueuedAddressEntry",
    "QueuedLeaf",
    "QueuedNullifierEntry",
    "SequenceNumber",
    "parse_insert_into_queues",
]

INSERT_INTO_QUEUES = bytes([180, 143, 159, 153, 35, 46, 248, 163])
TREE_TYPES = {1: "state_v1", 2: "address_v1", 3: "state_v2", 4: "address_v2"}
"""`tree_type` of a sequence-number entry (Light's `program-libs/compressed-account/src/lib.rs` TreeType)."""

_KEY = construct.Bytes(32)
_SEQUENCE_NUMBER = construct.Struct("tree" / _KEY, "queue" / _KEY, "tree_type" / construct.Int64ul,
                                    "seq" / construct.Int64ul)


def _u8_vector(item: construct.Construct) -> construct.Construct:
    return construct.PrefixedArray(construct.Int8ul, item)


_INSERT_INTO_QUEUES = construct.Struct(
    "is_invoked_by_program" / construct.Int8ul, "bump" / construct.Int8ul, "num_queues" / construct.Int8ul,
    "num_output_queues" / construct.Int8ul, "start_output_appends" / construct.Int8ul,
    "num_address_queues" / construct.Int8ul, "tx_hash" / _KEY,
    "leaves" / _u8_vector(construct.Struct("account_index" / construct.Int8ul, "leaf" / _KEY)),
    "nullifiers" / _u8_vector(construct.Struct(
        "account_hash" / _KEY, "leaf_index" / construct.Int32ul, "prove_by_index" / construct.Int8ul,
        "tree_index" / construct.Int8ul, "queue_index" / construct.Int8ul)),
    "addresses" / _u8_vector(construct.Struct("address" / _KEY, "tree_index" / construct.Int8ul,
                                              "queue_index" / construct.Int8ul)),
    "output_sequence_numbers" / _u8_vector(_SEQUENCE_NUMBER),
    "input_sequence_numbers" / _u8_vector(_SEQUENCE_NUMBER),
    "address_sequence_numbers" / _u8_vector(_SEQUENCE_NUMBER),
    "output_leaf_indices" / _u8_vector(construct.Int32ul),
    "cpi_context_outputs" / Vec(OUTPUT_COMPRESSED_ACCOUNT),
)


@dataclass(frozen=True, slots=True)
class QueuedLeaf:
    """An output's hash, appended to `account` (a batched tree's output queue, or a v1 tree)."""

    account: bytes
    hash: bytes


@dataclass(frozen=True, slots=True)
class QueuedNullifierEntry:
    """A spent account: its hash and leaf index in tree `tree` (whose queue is `queue`)."""

    account_hash: bytes
    leaf_index: int
    prove_by_index: bool
    tree: bytes
    queue: bytes


@dataclass(frozen=True, slots=True)
class QueuedAddressEntry:
    address: bytes
    tree: bytes
    queue: bytes


@dataclass(frozen=True, slots=True)
class SequenceNumber:
    """A tree's number at the insertion: see `InsertIntoQueues` for its meaning per tree type."""

    tree: bytes
    queue: bytes
    tree_type: str
    seq: int


@dataclass(frozen=True, slots=True)
class InsertIntoQueues:
    """One `insert_into_queues`, with account indices resolved to pubkeys.

    `seq` of a sequence-number entry (Light's `programs/system/src/processor/create_*_cpi_data.rs`):
    output to a batched tree (`state_v2`, queue = its output queue) → leaf index of the first output;
    output to a v1 tree (`state_v1`, queue = tree) → the seq of the first output; input to a batched tree
    → input-queue index of the first input; new address in a batched address tree (`address_v2`) → queue
    index of the first address.
    """

    tx_hash: bytes
    leaves: tuple[QueuedLeaf, ...]
    nullifiers: tuple[QueuedNullifierEntry, ...]
    addresses: tuple[QueuedAddressEntry, ...]
    output_sequence_numbers: tuple[SequenceNumber, ...]
    input_sequence_numbers: tuple[SequenceNumber, ...]
    address_sequence_numbers: tuple[SequenceNumber, ...]
    output_leaf_indices: tuple[int, ...]
    cpi_context_outputs: tuple[OutputCompressedAccount, ...]


def _sequence_numbers(entries: list, what: str) -> tuple[SequenceNumber, ...]:
    found = []
    for entry in entries:
        if entry.tree == bytes(32) and entry.seq == 0:
            continue
        if entry.tree_type not in TREE_TYPES:
            raise EventError(f"insert_into_queues {what}: unknown tree type {entry.tree_type}")
        found.append(SequenceNumber(entry.tree, entry.queue, TREE_TYPES[entry.tree_type], entry.seq))
    return tuple(found)


def parse_insert_into_queues(data: bytes, accounts: tuple[bytes, ...]) -> InsertIntoQueues:
    """Decode the instruction data; `accounts` are the instruction's accounts after the first two."""
    if len(data) < 12 or bytes(data[:8]) != INSERT_INTO_QUEUES:
        raise EventError(f"insert_into_queues data must start with its discriminator and a length ({len(data)} bytes)")
    body = parse_event(_INSERT_INTO_QUEUES, data[12:], "insert_into_queues", exact=True)

    def account(index: int, what: str) -> bytes:
        if index >= len(accounts):
            raise EventError(f"insert_into_queues {what}: account index {index} is outside its {len(accounts)} "
                             "tree and queue accounts")
        return accounts[index]

    leaves = tuple(QueuedLeaf(account(leaf.account_index, f"leaf {k}"), leaf.leaf)
                   for k, leaf in enumerate(body.leaves))
    nullifiers = tuple(
        QueuedNullifierEntry(item.account_hash, item.leaf_index, item.prove_by_index != 0,
                             account(item.tree_index, f"nullifier {k}"), account(item.queue_index, f"nullifier {k}"))
        for k, item in enumerate(body.nullifiers)
    )
    addresses = tuple(
        QueuedAddressEntry(item.address, account(item.tree_index, f"address {k}"),
                           account(item.queue_index, f"address {k}"))
        for k, item in enumerate(body.addresses)
    )
    return InsertIntoQueues(
        body.tx_hash, leaves, nullifiers, addresses,
        _sequence_numbers(body.output_sequence_numbers, "output sequence numbers"),
        _sequence_numbers(body.input_sequence_numbers, "input sequence numbers"),
        _sequence_numbers(body.address_sequence_numbers, "address sequence numbers"),
        tuple(body.output_leaf_indices),
        tuple(output_compressed_account(item) for item in body.cpi_context_outputs),
    )
