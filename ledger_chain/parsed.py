"""The `jsonParsed` encoding of a transaction, as a Solana node gives it.

Account keys come with whether each signs and is writable; an instruction of a program a node knows how to
read (System, SPL Token and Token-2022, the Associated Token Account program) is `{program, programId,
parsed: {type, info}}`, and every other one, or one a parser does not recognise, stays partially decoded:
`{programId, accounts, data}` with the keys named and the data in base58. The meta's inner instructions are
read the same way, and `loadedAddresses` is left out, as a node leaves it out of this encoding.

The parsers follow `solana-transaction-status` (parse_system, parse_token, parse_associated_token): the
same `type` names and `info` members, token amounts as strings, lamports as numbers.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from csi_conformance.groundwork.base58 import b58decode, b58encode
from solders.message import Message, MessageV0
from solders.pubkey import Pubkey
from solders.transaction import VersionedTransaction

__all__ = ["parsed_instruction", "parsed_meta", "parsed_transaction"]

SYSTEM = "11111111111111111111111111111111"
TOKEN = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA"
TOKEN_2022 = "TokenzQdBNbLqP5VEhdkAS6EPFGSFNZh8Cn2ab2CAhgk2"
ASSOCIATED_TOKEN = "ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL"

Info = dict[str, Any]
Parser = Callable[[bytes, list[str]], tuple[str, Info] | None]


def _u64(data: bytes, at: int) -> int:
    if len(data) < at + 8:
        raise ValueError("short instruction data")
    return int.from_bytes(data[at:at + 8], "little")


def _key(data: bytes, at: int) -> str:
    if len(data) < at + 32:
        raise ValueError("short instruction data")
    return str(Pubkey.from_bytes(data[at:at + 32]))


def _named(keys: list[str], *names: str) -> Info:
    if len(keys) < len(names):
        raise ValueError("too few accounts")
    return dict(zip(names, keys, strict=False))


def _system(data: bytes, keys: list[str]) -> tuple[str, Info] | None:
    tag = int.from_bytes(data[:4], "little") if len(data) >= 4 else None
    if tag == 0:
        return "createAccount", {**_named(keys, "source", "newAccount"), "lamports": _u64(data, 4),
                                 "space": _u64(data, 12), "owner": _key(data, 20)}
    if tag == 1:
        return "assign", {**_named(keys, "account"), "owner": _key(data, 4)}
    if tag == 2:
        return "transfer", {**_named(keys, "source", "destination"), "lamports": _u64(data, 4)}
    if tag == 8:
        return "allocate", {**_named(keys, "account"), "space": _u64(data, 4)}
    return None


def _authority(keys: list[str], at: int, name: str) -> Info:
    """The signing authority of a token instruction: one key, or a multisig and its signers."""
    if len(keys) <= at:
        raise ValueError("too few accounts")
    if len(keys) == at + 1:
        return {name: keys[at]}
    return {"multisig" + name[0].upper() + name[1:]: keys[at], "signers": keys[at + 1:]}


def _mint_authorities(data: bytes, at: int) -> Info:
    info: Info = {"decimals": data[1], "mintAuthority": _key(data, at)}
    if len(data) > at + 32 and data[at + 32] == 1:
        info["freezeAuthority"] = _key(data, at + 33)
    return info


def _token(data: bytes, keys: list[str]) -> tuple[str, Info] | None:
    tag = data[0] if data else None
    if tag == 20:
        return "initializeMint2", {**_named(keys, "mint"), **_mint_authorities(data, 2)}
    if tag == 0:
        return "initializeMint", {**_named(keys, "mint", "rentSysvar"), **_mint_authorities(data, 2)}
    if tag == 1:
        return "initializeAccount", _named(keys, "account", "mint", "owner", "rentSysvar")
    if tag == 16:
        return "initializeAccount2", {**_named(keys, "account", "mint"), "owner": _key(data, 1),
                                      **_named(keys[2:], "rentSysvar")}
    if tag == 18:
        return "initializeAccount3", {**_named(keys, "account", "mint"), "owner": _key(data, 1)}
    if tag == 3:
        return "transfer", {**_named(keys, "source", "destination"), "amount": str(_u64(data, 1)),
                            **_authority(keys, 2, "authority")}
    if tag == 4:
        return "approve", {**_named(keys, "source", "delegate"), "amount": str(_u64(data, 1)),
                           **_authority(keys, 2, "owner")}
    if tag == 5:
        return "revoke", {**_named(keys, "source"), **_authority(keys, 1, "owner")}
    if tag == 7:
        return "mintTo", {**_named(keys, "mint", "account"), "amount": str(_u64(data, 1)),
                          **_authority(keys, 2, "mintAuthority")}
    if tag == 8:
        return "burn", {**_named(keys, "account", "mint"), "amount": str(_u64(data, 1)),
                        **_authority(keys, 2, "authority")}
    if tag == 9:
        return "closeAccount", {**_named(keys, "account", "destination"), **_authority(keys, 2, "owner")}
    if tag == 17:
        return "syncNative", _named(keys, "account")
    if tag == 21 and len(data) == 1:
        return "getAccountDataSize", _named(keys, "mint")
    if tag == 22:
        return "initializeImmutableOwner", _named(keys, "account")
    return None


def _associated(data: bytes, keys: list[str]) -> tuple[str, Info] | None:
    kind = {b"": "create", b"\x00": "create", b"\x01": "createIdempotent"}.get(data)
    if kind is None:
        return None
    return kind, _named(keys, "source", "account", "wallet", "mint", "systemProgram", "tokenProgram")


PARSERS: dict[str, tuple[str, Parser]] = {
    SYSTEM: ("system", _system), TOKEN: ("spl-token", _token), TOKEN_2022: ("spl-token", _token),
    ASSOCIATED_TOKEN: ("spl-associated-token-account", _associated),
}
"""The programs a node parses that the kit's chains call: program id -> (name, parser)."""


def parsed_instruction(program_id: str, accounts: Sequence[str], data: bytes,
                       stack_height: int | None) -> dict[str, Any]:
    """One instruction as `jsonParsed` shows it: parsed when its program is known and the data reads, else
    partially decoded."""
    known = PARSERS.get(program_id)
    if known is not None:
        try:
            found = known[1](data, list(accounts))
        except (ValueError, IndexError):
            found = None
        if found is not None:
            return {"program": known[0], "programId": program_id,
                    "parsed": {"info": found[1], "type": found[0]}, "stackHeight": stack_height}
    return {"programId": program_id, "accounts": list(accounts), "data": b58encode(data),
            "stackHeight": stack_height}


def _writable(message: Message | MessageV0, index: int) -> bool:
    if isinstance(message, MessageV0):
        return message.is_maybe_writable(index)
    header, count = message.header, len(message.account_keys)
    signed = header.num_required_signatures
    if index < signed:
        writable = index < signed - header.num_readonly_signed_accounts
    else:
        writable = index < count - header.num_readonly_unsigned_accounts
    return writable and not message.demote_program_id(index)


def parsed_transaction(raw: bytes) -> tuple[dict[str, Any], list[str]]:
    """The `jsonParsed` transaction of raw bytes, and its account keys (the inner instructions name them)."""
    tx = VersionedTransaction.from_bytes(raw)
    message = tx.message
    keys = [str(key) for key in message.account_keys]
    ui: dict[str, Any] = {
        "accountKeys": [{"pubkey": key, "writable": _writable(message, index), "signer": message.is_signer(index),
                         "source": "transaction"} for index, key in enumerate(keys)],
        "recentBlockhash": str(message.recent_blockhash),
        "instructions": [parsed_instruction(keys[ix.program_id_index], [keys[i] for i in bytes(ix.accounts)],
                                            bytes(ix.data), None) for ix in message.instructions],
    }
    if isinstance(message, MessageV0):
        ui["addressTableLookups"] = [{"accountKey": str(lookup.account_key),
                                      "writableIndexes": list(bytes(lookup.writable_indexes)),
                                      "readonlyIndexes": list(bytes(lookup.readonly_indexes))}
                                     for lookup in message.address_table_lookups]
    return {"signatures": [str(signature) for signature in tx.signatures], "message": ui}, keys


def parsed_meta(meta: dict[str, Any], keys: list[str]) -> dict[str, Any]:
    """A stored meta as `jsonParsed` gives it: inner instructions parsed, no `loadedAddresses`."""
    shown = {name: value for name, value in meta.items() if name != "loadedAddresses"}
    if isinstance(meta.get("innerInstructions"), list):
        shown["innerInstructions"] = [
            {"index": group["index"], "instructions": [
                parsed_instruction(keys[ix["programIdIndex"]], [keys[i] for i in ix["accounts"]],
                                   b58decode(ix["data"]), ix.get("stackHeight"))
                for ix in group["instructions"]]}
            for group in meta["innerInstructions"]]
    return shown
