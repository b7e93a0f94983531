"""A `getTransaction` result (or one transaction of a `getBlock` result) as accounts and
instruction groups, decoded with solders (ledger-native.md, "Input").

The signature is `signatures[0]`; accounts are the message's static keys, then
`meta.loadedAddresses.writable`, then `.readonly` (v0 transactions); each outer instruction
forms a group with the inner instructions `meta.innerInstructions` lists under its index.
Anything that cannot be read is an `IngestError` naming the signature and what failed.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from csi_conformance.groundwork.base58 import b58decode, b58encode
from csi_conformance.groundwork.jsonio import dumps
from solders.transaction import VersionedTransaction

__all__ = ["DecodedTransaction", "IngestError", "Instruction", "decode_transaction", "error_text", "solana_object"]


class IngestError(ValueError):
    """A transaction, block or source that cannot be ingested; names the signature (or source) and why."""

    def __init__(self, what: str, *, signature: str | None = None, source: str | None = None) -> None:
        self.signature = signature
        self.source = source
        self.what = what
        if signature:
            where = f"transaction {signature}" + (f" ({source})" if source else "")
        else:
            where = source or "ledger source"
        super().__init__(f"{where}: {what}")


@dataclass(frozen=True, slots=True)
class Instruction:
    program: bytes
    accounts: tuple[int, ...]
    data: bytes


@dataclass(frozen=True, slots=True)
class DecodedTransaction:
    signature: bytes
    slot: int
    block_time: int
    error: str | None
    """`meta.err` as compact JSON (e.g. `{"InstructionError":[0,{"Custom":1}]}`), None when it succeeded."""
    account_keys: tuple[bytes, ...]
    groups: tuple[tuple[Instruction, ...], ...]
    """One group per outer instruction: the outer instruction, then its inner instructions."""
    solana: Mapping[str, Any] | None = field(default=None, compare=False, repr=False)
    """The transaction as Solana's `getTransaction` answers it (`solana_object`): what an indexer serves back."""

    @property
    def signature_text(self) -> str:
        return b58encode(self.signature)


def error_text(err: Any) -> str | None:
    """`meta.err` as the ledger keeps it: None for success, else its compact JSON."""
    return None if err is None else dumps(err)


def solana_object(result: Mapping[str, Any], slot: int, block_time: int | None) -> dict[str, Any]:
    """The transaction as `getTransaction` (encoding base64) answers it: a `getTransaction` result as it was
    read, its own slot and block time kept even where it is indexed at another; a `getBlock` entry
    (`transaction`, `meta`, `version`) with its block's slot and block time."""
    body = {key: value for key, value in result.items() if key not in ("slot", "blockTime")}
    return {"slot": result.get("slot", slot), **body, "blockTime": result.get("blockTime", block_time)}


def _first_signature(raw: bytes) -> str | None:
    """The first signature of transaction bytes solders could not decode (a compact-u16 count,
    then 64-byte signatures), so that even a truncated transaction's error names it."""
    if len(raw) >= 65 and 0 < raw[0] < 0x80:
        return b58encode(raw[1:65])
    return None


def decode_transaction(result: Mapping[str, Any], *, slot: int | None = None, block_time: int | None = None,
                       source: str | None = None, signature_hint: str | None = None) -> DecodedTransaction:
    """Decode one transaction with its meta; `slot` / `block_time` come from the block when the
    result is a `getBlock` entry, else from the result itself."""
    name = signature_hint

    def fail(what: str) -> IngestError:
        return IngestError(what, signature=name, source=source)

    if not isinstance(result, Mapping):
        raise fail(f"expected a transaction object, got {type(result).__name__}")
    encoded = result.get("transaction")
    if not (isinstance(encoded, Sequence) and not isinstance(encoded, str) and len(encoded) == 2
            and encoded[1] == "base64" and isinstance(encoded[0], str)):
        raise fail('`transaction` must be ["<base64>", "base64"] (fetch with encoding base64)')
    try:
        raw = base64.b64decode(encoded[0], validate=True)
    except (binascii.Error, ValueError) as exc:
        raise fail(f"transaction bytes are not base64: {exc}") from None
    try:
        tx = VersionedTransaction.from_bytes(raw)
    except Exception as exc:  # solders raises its own error types for malformed bytes
        name = name or _first_signature(raw)
        raise fail(f"cannot decode the transaction bytes ({len(raw)} bytes): {exc}") from None
    if not tx.signatures:
        raise fail("the transaction has no signature")
    signature = bytes(tx.signatures[0])
    name = b58encode(signature)
    meta = result.get("meta")
    if not isinstance(meta, Mapping):
        raise fail("`meta` is missing: the ledger needs the transaction's status and inner instructions")
    slot = result.get("slot") if slot is None else slot
    block_time = result.get("blockTime") if block_time is None else block_time
    if type(slot) is not int or slot < 0:
        raise fail(f"`slot` must be a non-negative integer, got {slot!r}")
    if block_time is None:
        block_time = 0
    if type(block_time) is not int:
        raise fail(f"`blockTime` must be an integer or null, got {block_time!r}")
    message = tx.message
    keys = [bytes(key) for key in message.account_keys]
    loaded = meta.get("loadedAddresses") or {}
    try:
        for part in ("writable", "readonly"):
            keys.extend(b58decode(text, length=32) for text in loaded.get(part) or ())
    except (ValueError, AttributeError, TypeError) as exc:
        raise fail(f"meta.loadedAddresses is not a list of pubkeys: {exc}") from None
    count = len(keys)

    def instruction(program_index: Any, accounts: Any, data: bytes, where: str) -> Instruction:
        if type(program_index) is not int or not 0 <= program_index < count:
            raise fail(f"{where}: program index {program_index!r} is not one of the {count} accounts")
        return Instruction(keys[program_index], tuple(accounts), data)

    outer = [instruction(ix.program_id_index, bytes(ix.accounts), bytes(ix.data), f"instruction {i}")
             for i, ix in enumerate(message.instructions)]
    inner: dict[int, list[Instruction]] = {}
    for group in meta.get("innerInstructions") or ():
        try:
            index = group["index"]
            items = group["instructions"]
            if type(index) is not int or not 0 <= index < len(outer):
                raise ValueError(f"index {index!r} names no outer instruction")
            inner[index] = [
                instruction(item["programIdIndex"], item.get("accounts") or (), b58decode(item["data"]),
                            f"inner instruction {index}.{j}")
                for j, item in enumerate(items)
            ]
        except IngestError:
            raise
        except (KeyError, TypeError, ValueError) as exc:
            raise fail(f"meta.innerInstructions cannot be read: {exc!r}") from None
    groups = tuple((ix, *inner.get(i, ())) for i, ix in enumerate(outer))
    return DecodedTransaction(signature, slot, block_time, error_text(meta.get("err")), tuple(keys), groups,
                              solana_object(result, slot, block_time))
