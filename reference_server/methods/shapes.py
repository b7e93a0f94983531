"""JSON shapes of ledger values (spec §2), and the param readings every method group shares.

Optional members are present with an explicit null (`address`, `data`, `delegate`, `tlv`), as
observed practice does (observed-practice.md, "Results"); the spec's tables leave open whether
they are omitted or null (ambiguity optional-null).
"""

from __future__ import annotations

import base64
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from csi_conformance.groundwork.base58 import b58decode, b58encode
from csi_conformance.ledger_crypto import TokenDataFields
from csi_conformance.reference_server.errors import SERVER_ERROR, RpcError
from csi_conformance.reference_server.ledger import Ledger
from csi_conformance.reference_server.records import Account

__all__ = [
    "account_json",
    "address_or_hash",
    "key_param",
    "key_text",
    "lookup_live",
    "token_json",
]


def account_json(account: Account, data_slice: Mapping[str, int] | None = None) -> dict[str, Any]:
    """A CompressedAccount (§2.3); `dataSlice` cuts only `data.data` (observed)."""
    data = None
    if account.data is not None:
        raw = account.data
        if data_slice is not None:
            raw = raw[data_slice["offset"] : data_slice["offset"] + data_slice["length"]]
        data = {
            "data": base64.b64encode(raw).decode("ascii"),
            "dataHash": b58encode(account.data_hash),
            "discriminator": account.discriminator,
        }
    return {
        "hash": b58encode(account.hash),
        "lamports": account.lamports,
        "leafIndex": account.leaf_index,
        "owner": key_text(account.owner),
        "slotCreated": account.slot_created,
        "tree": key_text(account.tree),
        "address": None if account.address is None else b58encode(account.address),
        "data": data,
        "seq": account.seq,
    }


def token_json(token: TokenDataFields) -> dict[str, Any]:
    """TokenData (§2.5); `state` is the string name, as the wire example and observed practice."""
    return {
        "amount": token.amount,
        "mint": key_text(token.mint),
        "owner": key_text(token.owner),
        "state": token.state,
        "delegate": None if token.delegate is None else key_text(token.delegate),
        "tlv": None if token.tlv is None else base64.b64encode(token.tlv).decode("ascii"),
    }


@lru_cache(maxsize=8192)
def key_text(key: bytes) -> str:
    """Base58 of a key that recurs across answers (owner, tree, mint, delegate): encoded once."""
    return b58encode(key)


def key_param(params: Mapping[str, Any], name: str) -> bytes | None:
    """A Pubkey or Hash param's 32 bytes, None when absent or null (the contract checked the form)."""
    value = params.get(name)
    return None if value is None else b58decode(value, length=32)


def address_or_hash(params: Mapping[str, Any]) -> tuple[bytes | None, bytes | None]:
    """The one of `address` and `hash` a lookup names; neither or both is a validation error.

    Neither is the message observed practice answers with (-32000). Both: observed practice
    lets the address win silently, but the spec says the request fails (7-C1), and the spec wins.
    """
    address, hash_ = key_param(params, "address"), key_param(params, "hash")
    if address is None and hash_ is None:
        raise RpcError(SERVER_ERROR, "Validation Error: Either address or hash must be provided")
    if address is not None and hash_ is not None:
        raise RpcError(SERVER_ERROR, "Validation Error: Only one of address or hash must be provided")
    return address, hash_


def lookup_live(ledger: Ledger, params: Mapping[str, Any]) -> Account | None:
    """The live account named by `address` or `hash`; a closed account is not found."""
    address, hash_ = address_or_hash(params)
    return ledger.live_by_address(address) if address is not None else ledger.live_by_hash(hash_)
