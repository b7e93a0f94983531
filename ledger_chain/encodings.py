"""A stored transaction in the encodings `getBlock` and `getTransaction` offer: base64 (as kept),
base58, json (the decoded message: keys, header, blockhash, instructions with base58 data), or
jsonParsed (keys with their roles, the instructions of the programs a node knows parsed: `parsed.py`).

What a node varies by request is applied to a copy of the stored entry: `version` only when the
client says which versions it supports (`maxSupportedTransactionVersion`), `rewards` only when
asked (the default), and the transaction details (full, signatures, or none).
"""

from __future__ import annotations

import base64
from typing import Any

from csi_conformance.groundwork.base58 import b58encode
from csi_conformance.ledger_chain.parsed import parsed_meta, parsed_transaction
from solders.message import MessageV0
from solders.transaction import VersionedTransaction

__all__ = ["ENCODINGS", "encode_entry", "ui_transaction"]

ENCODINGS = ("json", "jsonParsed", "base64", "base58")


def ui_transaction(raw: bytes) -> dict[str, Any]:
    """The json encoding of a transaction (`UiTransaction` with a raw message)."""
    tx = VersionedTransaction.from_bytes(raw)
    message = tx.message
    header = message.header
    ui: dict[str, Any] = {
        "header": {"numRequiredSignatures": header.num_required_signatures,
                   "numReadonlySignedAccounts": header.num_readonly_signed_accounts,
                   "numReadonlyUnsignedAccounts": header.num_readonly_unsigned_accounts},
        "accountKeys": [str(key) for key in message.account_keys],
        "recentBlockhash": str(message.recent_blockhash),
        "instructions": [{"programIdIndex": ix.program_id_index, "accounts": list(bytes(ix.accounts)),
                          "data": b58encode(bytes(ix.data)), "stackHeight": None} for ix in message.instructions],
    }
    if isinstance(message, MessageV0):
        ui["addressTableLookups"] = [{"accountKey": str(lookup.account_key),
                                      "writableIndexes": list(bytes(lookup.writable_indexes)),
                                      "readonlyIndexes": list(bytes(lookup.readonly_indexes))}
                                     for lookup in message.address_table_lookups]
    return {"signatures": [str(signature) for signature in tx.signatures], "message": ui}


def encode_entry(entry: dict[str, Any], *, encoding: str, versioned: bool) -> dict[str, Any]:
    """A block's transaction entry (stored base64, with version) in the asked encoding."""
    raw = base64.b64decode(entry["transaction"][0])
    meta = entry["meta"]
    if encoding == "base64":
        transaction: Any = entry["transaction"]
    elif encoding == "base58":
        transaction = [b58encode(raw), "base58"]
    elif encoding == "jsonParsed":
        transaction, keys = parsed_transaction(raw)
        meta = parsed_meta(meta, keys)
    else:
        transaction = ui_transaction(raw)
    encoded = {"transaction": transaction, "meta": meta}
    if versioned:
        encoded["version"] = entry.get("version", "legacy")
    return encoded
