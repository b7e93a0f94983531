"""Reading the real ledger: Solana transactions of the ZK Compression programs as ledger changes.

`decode` turns a `getTransaction` / `getBlock` result into accounts and instruction groups
(solders), `recognize` finds the instructions that carry state (noop events, or account
compression's `insert_into_queues` with the light system instruction that executed it), `events`
reads the borsh events, `queues` and `system` those two instructions, `changes` turns them into
plain ledger changes (`LedgerTransaction`), and `sources` reads them from files, folders or a
Solana JSON-RPC endpoint. Nothing here knows the reference
server: it takes the changes and applies them (`reference_server.ledger_native`).
Facts: docs/ledger-native.md.
"""

from csi_conformance.ledger_ingest.changes import (
    AddressUpdate,
    BatchEvent,
    LedgerTransaction,
    Nullification,
    OutputAccount,
    QueuedAddress,
    QueuedNullifier,
    transaction_changes,
)
from csi_conformance.ledger_ingest.decode import DecodedTransaction, IngestError, Instruction, decode_transaction
from csi_conformance.ledger_ingest.ledger_source import LedgerSource
from csi_conformance.ledger_ingest.sources import (
    Block,
    SlotRange,
    fetch_blocks,
    parse_slots,
    read_paths,
)

__all__ = [
    "AddressUpdate",
    "BatchEvent",
    "Block",
    "DecodedTransaction",
    "IngestError",
    "Instruction",
    "LedgerSource",
    "LedgerTransaction",
    "Nullification",
    "OutputAccount",
    "QueuedAddress",
    "QueuedNullifier",
    "SlotRange",
    "decode_transaction",
    "fetch_blocks",
    "parse_slots",
    "read_paths",
    "transaction_changes",
]
