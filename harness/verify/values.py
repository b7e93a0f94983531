"""Ranges of the values an answer carries, and a token account's bytes read back as TokenData.

The ledger stores lamports, amounts, discriminators, slots and sequence numbers as u64, leaf
indices as u32, and hashes, roots and leaves as BN254 field elements (ledger-H3). The schema
only says "non-negative integer" and "32-byte base58", so a value past these bounds passes
it: here it is a finding, never a value silently skipped.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from csi_conformance.groundwork.base58 import b58decode, b58encode
from csi_conformance.ledger_crypto import FIELD_MODULUS, TokenDataFields, account_hash, decode_token_data

__all__ = [
    "ACCOUNT_FIELDS",
    "ACCOUNT_KEYS",
    "U32_MAX",
    "U64_MAX",
    "OutOfRange",
    "bn_value",
    "decoded_token",
    "matching_layout",
    "range_problems",
    "recomputed_hash",
    "token_bytes_problems",
    "tree_layouts",
]

U64_MAX = 2**64 - 1
U32_MAX = 2**32 - 1
FIELD = "field"
"""Bound kind of a BN254 field element (below r)."""

ACCOUNT_FIELDS = ("hash", "owner", "tree", "leafIndex", "lamports")
"""The members that make an object a CompressedAccount."""
ACCOUNT_KEYS = frozenset(ACCOUNT_FIELDS)
_TOKEN_KEYS = frozenset({"mint", "owner", "amount"})
ACCOUNT_BOUNDS = {"lamports": U64_MAX, "slotCreated": U64_MAX, "seq": U64_MAX, "leafIndex": U32_MAX,
                  "hash": FIELD, "address": FIELD}
DATA_BOUNDS = {"discriminator": U64_MAX, "dataHash": FIELD}
TOKEN_BOUNDS = {"amount": U64_MAX}
NEW_ADDRESS_BOUNDS = {"root": FIELD, "rootSeq": U64_MAX, "lowElementLeafIndex": U32_MAX, "nextIndex": U32_MAX}
VALIDITY_LIST_BOUNDS = {"roots": FIELD, "leaves": FIELD, "leafIndices": U32_MAX, "rootIndices": U32_MAX}
"""Member -> bound, per kind of object; data, not code (ledger-H3)."""


def bn_value(value: Any) -> int | None:
    """A hash, root or leaf as an integer: a base58 32-byte string or a JSON integer (ambiguity
    bn-values); None when it is neither (the schema checks report that)."""
    if type(value) is int:
        return value
    return _base58_value(value) if type(value) is str else None


@lru_cache(maxsize=8192)
def _base58_value(text: str) -> int | None:
    """Cached: a run meets the same few hundred hashes and roots in answer after answer."""
    try:
        return int.from_bytes(b58decode(text, length=32), "big")
    except ValueError:
        return None


@dataclass(frozen=True)
class OutOfRange:
    """A value past its bound: where it is (a JSON path), the value, and the bound in words."""

    path: str
    value: Any
    bound: str


def _problem(path: str, value: Any, bound: int | str) -> OutOfRange | None:
    """How `value` at `path` breaks its bound, or None (also None when it is not a value of the
    expected type at all: that is the schema's finding)."""
    if bound == FIELD:
        number = bn_value(value)
        if number is not None and not 0 <= number < FIELD_MODULUS:
            return OutOfRange(path, value, f"a BN254 field element (below r = {FIELD_MODULUS})")
        return None
    if type(value) is int and not 0 <= value <= bound:
        kind = "u64" if bound == U64_MAX else "u32"
        return OutOfRange(path, value, f"a {kind}, in [0, {bound}]")
    return None


def _bounded(node: dict, path: str, bounds: dict[str, int | str]) -> Iterator[tuple[str, Any, int | str]]:
    for key, bound in bounds.items():
        if node.get(key) is not None:
            yield f"{path}.{key}", node[key], bound


def _checks_of(node: dict, path: str) -> Iterator[tuple[str, Any, int | str]]:
    """(path, value, bound) for every bounded member of one object, by what the object is."""
    if node.keys() >= ACCOUNT_KEYS:
        yield from _bounded(node, path, ACCOUNT_BOUNDS)
        if isinstance(node.get("data"), dict):
            yield from _bounded(node["data"], f"{path}.data", DATA_BOUNDS)
    if node.keys() >= _TOKEN_KEYS:
        yield from _bounded(node, path, TOKEN_BOUNDS)
    if "lowerRangeAddress" in node:
        yield from _bounded(node, path, NEW_ADDRESS_BOUNDS)
        for i, item in enumerate(node.get("proof") if isinstance(node.get("proof"), list) else []):
            yield f"{path}.proof[{i}]", item, FIELD
    if "rootIndices" in node:
        for key, bound in VALIDITY_LIST_BOUNDS.items():
            for i, item in enumerate(node.get(key) if isinstance(node.get(key), list) else []):
                yield f"{path}.{key}[{i}]", item, bound
    if isinstance(node.get("context"), dict) and "slot" in node["context"]:
        yield f"{path}.context.slot", node["context"]["slot"], U64_MAX


def _objects(node: Any, path: str) -> list[tuple[dict, str]]:
    """Every object in `node` with its path, in document order (a stack, not recursion: answers are
    walked once each, and recursion's generators cost more than the walk)."""
    found: list[tuple[dict, str]] = []
    stack = [(node, path)] if isinstance(node, (dict, list)) else []
    while stack:
        node, path = stack.pop()
        if isinstance(node, dict):
            found.append((node, path))
            stack.extend((value, f"{path}.{key}") for key, value in reversed(node.items())
                         if isinstance(value, (dict, list)))
        else:
            stack.extend((item, f"{path}[{i}]") for i, item in reversed(list(enumerate(node)))
                         if isinstance(item, (dict, list)))
    return found


def range_problems(result: Any, path: str = "$.result") -> tuple[int, list[OutOfRange]]:
    """How many bounded values `result` holds, and what is wrong with those out of range. A bare integer
    result is a u64 (getIndexerSlot's slot)."""
    if type(result) is int:
        problem = _problem(path, result, U64_MAX)
        return 1, [problem] if problem else []
    seen, problems = 0, []
    for node, where in _objects(result, path):
        for member, value, bound in _checks_of(node, where):
            seen += 1
            problem = _problem(member, value, bound)
            if problem:
                problems.append(problem)
    return seen, problems


# -- token account bytes (ledger-H2) ---------------------------------------------------------------
def _key(raw: bytes | None) -> str | None:
    return None if raw is None else b58encode(raw)


def _state_name(state: Any) -> Any:
    """A wire state in either reading of ambiguity token-state, as its name."""
    return {0: "initialized", 1: "frozen"}.get(state, state) if type(state) is int else state


def _tlv_bytes(tlv: Any) -> bytes | str | None:
    """tokenData.tlv as bytes when it is base64 (reading base64 of tlv-format), else as given."""
    if not isinstance(tlv, str):
        return tlv
    try:
        return base64.b64decode(tlv, validate=True)
    except (binascii.Error, ValueError):
        return tlv  # reading any-string: only its presence can be compared


def _wire(fields: TokenDataFields) -> dict:
    """Decoded TokenData in tokenData's wire form (state by name, tlv as bytes)."""
    return {"mint": b58encode(fields.mint), "owner": b58encode(fields.owner), "amount": fields.amount,
            "delegate": _key(fields.delegate), "state": fields.state, "tlv": fields.tlv}


def decoded_token(text: Any) -> dict | None:
    """Base64 `data.data` read as borsh TokenData, in tokenData's wire form; None when it is not."""
    try:
        return _wire(decode_token_data(base64.b64decode(text, validate=True)))
    except (binascii.Error, ValueError, TypeError):
        return None


@dataclass(frozen=True)
class TokenBytesProblem:
    """How a token account's bytes disagree with its `tokenData`: the bytes cannot be read as TokenData
    (`unreadable` says why), or members differ (`held`: what the bytes hold, `given`: what tokenData says)."""

    unreadable: str | None = None
    held: dict[str, Any] = field(default_factory=dict)
    given: dict[str, Any] = field(default_factory=dict)

    @property
    def agrees(self) -> bool:
        return self.unreadable is None and not self.held and not self.given


def token_bytes_problems(account: dict, token: dict) -> TokenBytesProblem | None:
    """How the account's `data.data` (borsh TokenData) agrees with `tokenData`; None when there are no
    bytes to read (no data, or data that is not base64: the schema's finding)."""
    data = account.get("data")
    if not isinstance(data, dict) or not isinstance(data.get("data"), str):
        return None
    try:
        raw = base64.b64decode(data["data"], validate=True)
    except (binascii.Error, ValueError):
        return None
    try:
        held = _wire(decode_token_data(raw))
    except ValueError as exc:
        return TokenBytesProblem(unreadable=str(exc))
    given = {**token, "state": _state_name(token.get("state")), "tlv": _tlv_bytes(token.get("tlv"))}
    differing = [name for name in ("mint", "owner", "amount", "delegate", "state") if held[name] != given.get(name)]
    tlv = given["tlv"]
    # a tlv that is not base64 (reading any-string of tlv-format): only its presence compares
    if (held["tlv"] is None) if isinstance(tlv, str) else tlv != held["tlv"]:
        differing.append("tlv")
    if not differing:
        return TokenBytesProblem()
    wire = {**held, "tlv": None if held["tlv"] is None else base64.b64encode(held["tlv"]).decode()}
    return TokenBytesProblem(held={name: wire[name] for name in differing},
                             given={name: token.get(name) for name in differing})


def recomputed_hash(account: dict, *, batched: bool = False) -> bytes:
    """The account hash from the account's own fields, in a v1 tree's layout or (`batched`) a batched tree's;
    ValueError when a field is malformed, TypeError when one is not a JSON scalar."""
    data = account.get("data")
    has_data = isinstance(data, dict)
    return _recomputed_hash(account["owner"], account["leafIndex"], account["tree"], account["lamports"],
                            account.get("address") or None, data["discriminator"] if has_data else None,
                            data["dataHash"] if has_data else None, batched)


@lru_cache(maxsize=65536, typed=True)  # typed: a leafIndex of True or 1.0 is not the 1 it equals
def _recomputed_hash(owner: str, leaf_index: int, tree: str, lamports: int, address: str | None,
                     discriminator: int | None, data_hash: str | None, batched: bool) -> bytes:
    """Cached: a run meets the same accounts in answer after answer, and each hash is a Poseidon or two."""
    return account_hash(
        owner=b58decode(owner, length=32),
        leaf_index=leaf_index,
        tree=b58decode(tree, length=32),
        lamports=lamports,
        address=b58decode(address, length=32) if address is not None else None,
        discriminator=discriminator,
        data_hash=b58decode(data_hash, length=32) if data_hash is not None else None,
        batched=batched,
    )


def tree_layouts(tree: Any, batched_trees: frozenset[str] | None) -> tuple[bool, ...]:
    """The hash layouts (`batched` or not) an account of `tree` may have: the one its tree's kind says when the
    ledger is known (`batched_trees`), else either (a batched tree's pubkey does not say what it is)."""
    if batched_trees is None:
        return (False, True)
    return (tree in batched_trees,)


def matching_layout(account: dict, layouts: tuple[bool, ...]) -> bool | None:
    """The layout (`batched` or not) under which the account's hash recomputes, None when none does;
    ValueError when a field is malformed."""
    for batched in layouts:
        if b58encode(recomputed_hash(account, batched=batched)) == account["hash"]:
            return batched
    return None


DIAGNOSED = ("leafIndex", "tree", "owner")
"""Members whose wrong value a hash can name: each is an input of the hash that other answers also show."""
NEIGHBOURS = 3
"""Leaf indices this far either side of the one given are tried too (an index off by one is a common fault)."""
MAX_TRIES = 64


def disagreeing_member(account: dict, seen: Mapping[str, Iterable[Any]],
                       layouts: tuple[bool, ...] = (False,)) -> tuple[str, Any] | None:
    """The member of an account whose hash does not recompute, and the value that makes it recompute: another
    value the run saw for that member (`seen`: the same account elsewhere, the other accounts of the answer),
    or a leaf index next to the one given. None when no single member explains the hash."""
    try:
        wanted = b58decode(account["hash"], length=32)
    except (KeyError, ValueError):
        return None
    for member in DIAGNOSED:
        given = account.get(member)
        values = {value for value in seen.get(member, ()) if value != given and isinstance(value, int | str)}
        if member == "leafIndex" and type(given) is int:
            values |= {given + step for step in range(-NEIGHBOURS, NEIGHBOURS + 1) if step and given + step >= 0}
        for value in sorted(values, key=str)[:MAX_TRIES]:
            try:
                if any(recomputed_hash({**account, member: value}, batched=b) == wanted for b in layouts):
                    return member, value
            except (KeyError, TypeError, ValueError, OverflowError):
                continue
    return None
