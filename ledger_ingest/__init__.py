"""Reading the real ledger: Solana transactions of the ZK Compression programs as ledger changes.

`decode` turns a `getTransaction` / `getBlock` result into accounts and instruction groups
(solders), `recognize` finds the instruction groups that carry state, `events` reads their borsh
events, `changes` turns them into plain ledger changes (`LedgerTransaction`), and `sources` reads
them from files, folders or a Solana JSON-RPC endpoint. Nothing here knows the reference
server: it takes the changes and applies them (`reference_server.ledger_native`).
Facts: ../shared/design/ledger-native.md.
"""

from ledger_ingest.changes import (
    AddressUpdate,
    LedgerTransaction,
    Nullification,
    OutputAccount,
    transaction_changes,
)
from ledger_ingest.decode import DecodedTransaction, IngestError, Instruction, decode_transaction
from ledger_ingest.ledger_source import LedgerSource
from ledger_ingest.sources import (
    Block,
    SlotRange,
    fetch_blocks,
    parse_slots,
    read_paths,
    redact_url,
)

__all__ = [
    "AddressUpdate",
    "Block",
    "DecodedTransaction",
    "IngestError",
    "Instruction",
    "LedgerSource",
    "LedgerTransaction",
    "Nullification",
    "OutputAccount",
    "SlotRange",
    "decode_transaction",
    "fetch_blocks",
    "parse_slots",
    "read_paths",
    "redact_url",
    "transaction_changes",
]
