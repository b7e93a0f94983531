"""Accounts as a target showed them, parsed into what a scenario and an account hash take."""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass
from typing import Any

from csi_conformance.groundwork.base58 import b58decode, b58encode
from csi_conformance.ledger_crypto import (
    FIELD_MODULUS,
    TOKEN_DISCRIMINATOR,
    TOKEN_PROGRAM_ID,
    decode_token_data,
    token_data_hash,
)

__all__ = ["Record", "Unmirrorable", "parse_record"]

TOKEN_PROGRAM = b58encode(TOKEN_PROGRAM_ID)
U64 = 2**64
_STATES = {"initialized": "initialized", "frozen": "frozen", 0: "initialized", 1: "frozen"}


class Unmirrorable(ValueError):
    """An account the mirror cannot hold as the target showed it."""


@dataclass
class Record:
    """One account as the target showed it, parsed into what a scenario and a hash take."""

    hash: str
    account: dict
    spec: dict[str, Any]
    hash_inputs: dict[str, Any]
    owner: str
    token_owner: str | None = None
    delegate: str | None = None

    @property
    def keys(self) -> set[str]:
        return {k for k in (self.owner, self.token_owner, self.delegate, self.account.get("address")) if k}


def _key(value: Any, what: str) -> bytes:
    try:
        return b58decode(value, length=32)
    except (TypeError, ValueError):
        raise Unmirrorable(f"{what} {value!r} is not a base58 32-byte key") from None


def _u64(value: Any, what: str) -> int:
    if type(value) is not int or not 0 <= value < U64:
        raise Unmirrorable(f"{what} {value!r} is not a u64")
    return value


def _bytes64(text: Any, what: str) -> bytes:
    try:
        return base64.b64decode(text, validate=True)
    except (TypeError, ValueError, binascii.Error):
        raise Unmirrorable(f"{what} is not base64") from None


def _token_of(account: dict, token: dict | None) -> dict | None:
    """Token data as shown, else decoded from a token-program account's data (borsh TokenData)."""
    if token is not None:
        return token
    data = account.get("data")
    if account.get("owner") != TOKEN_PROGRAM or not isinstance(data, dict):
        return None
    if data.get("discriminator") != TOKEN_DISCRIMINATOR:
        return None
    try:
        fields = decode_token_data(_bytes64(data.get("data"), "data"))
    except ValueError:
        return None
    return {"mint": b58encode(fields.mint), "owner": b58encode(fields.owner), "amount": fields.amount,
            "delegate": None if fields.delegate is None else b58encode(fields.delegate), "state": fields.state,
            "tlv": None if fields.tlv is None else base64.b64encode(fields.tlv).decode()}


def parse_record(target_hash: str, account: dict, token: dict | None) -> Record:
    """Parse an account for the mirror; `Unmirrorable` says why it cannot be held."""
    _key(target_hash, "hash")
    tree, lamports = _key(account.get("tree"), "tree"), _u64(account.get("lamports"), "lamports")
    spec: dict[str, Any] = {"label": f"h{target_hash}", "lamports": lamports, "tree": account["tree"]}
    address = account.get("address")
    if address is not None:
        value = int.from_bytes(_key(address, "address"), "big")
        if not 0 < value < 2**248:
            raise Unmirrorable(f"address {address} is not below 2^248")
        spec["address"] = address
    inputs: dict[str, Any] = {"tree": tree, "lamports": lamports,
                              "address": None if address is None else _key(address, "address")}
    token = _token_of(account, token)
    if token is not None:
        data = account.get("data")
        if isinstance(data, dict) and data.get("discriminator") != TOKEN_DISCRIMINATOR:
            raise Unmirrorable(f"a token account of discriminator {data.get('discriminator')} (the newer token "
                               "program's, with extensions): the mirror builds classic token accounts only")
        return _token_record(target_hash, account, token, spec, inputs)
    owner = account.get("owner")
    inputs.update(owner=_key(owner, "owner"), discriminator=None, data_hash=None)
    spec["owner"] = owner
    data = account.get("data")
    if data is not None:
        raw = _bytes64(data.get("data") if isinstance(data, dict) else None, "data")
        data_hash = _key(data.get("dataHash"), "dataHash")
        if int.from_bytes(data_hash, "big") >= FIELD_MODULUS:
            raise Unmirrorable("dataHash is not below the field modulus")
        inputs.update(discriminator=_u64(data.get("discriminator"), "discriminator"), data_hash=data_hash)
        spec["data"] = {"discriminator": inputs["discriminator"], "base64": base64.b64encode(raw).decode(),
                        "dataHash": data["dataHash"]}
    return Record(target_hash, account, spec, inputs, owner)


def _token_record(target_hash: str, account: dict, token: dict, spec: dict, inputs: dict) -> Record:
    mint, owner = _key(token.get("mint"), "mint"), _key(token.get("owner"), "token owner")
    delegate = token.get("delegate")
    state = _STATES.get(token.get("state")) if isinstance(token.get("state"), str | int) else None
    if state is None:
        raise Unmirrorable(f"token state {token.get('state')!r} is unknown")
    fields: dict[str, Any] = {"mint": token["mint"], "owner": token["owner"],
                              "amount": _u64(token.get("amount"), "amount"), "state": state}
    if delegate is not None:
        fields["delegate"] = delegate
    if token.get("tlv") is not None:
        fields["tlv"] = base64.b64encode(_bytes64(token["tlv"], "tlv")).decode()
    spec["token"] = fields
    hashed = dict(mint=mint, owner=owner, amount=fields["amount"],
                  delegate=None if delegate is None else _key(delegate, "delegate"), frozen=state == "frozen")
    served = account["data"].get("dataHash") if isinstance(account.get("data"), dict) else None
    if served == b58encode(token_data_hash(**hashed, batched=True)) != b58encode(token_data_hash(**hashed)):
        raise Unmirrorable("a token account whose dataHash is the token program's v2 hash (amount big-endian, a "
                           "batched tree's): the mirror builds v1-hashed token accounts only")
    inputs.update(owner=TOKEN_PROGRAM_ID, discriminator=TOKEN_DISCRIMINATOR, data_hash=token_data_hash(**hashed))
    return Record(target_hash, account, spec, inputs, TOKEN_PROGRAM, token["owner"], delegate)
