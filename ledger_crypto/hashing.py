"""Hashes of the compressed-state ledger: Poseidon, hash-to-field, accounts and tokens.

The base58 codec is the contract's (`groundwork.base58`), re-exported here for the ledger's callers.

Everything here follows ``docs/ledger-facts.md`` byte for byte, so that the reference
server and the harness compute the same hashes a live indexer serves. All functions are
pure.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from Crypto.Hash import keccak
from csi_conformance.groundwork.base58 import b58decode
from light_poseidon_python import Hasher

__all__ = [
    "FIELD_MODULUS",
    "HIGHEST_ADDRESS_PLUS_ONE",
    "TOKEN_DISCRIMINATOR",
    "TOKEN_PROGRAM_ID",
    "TokenDataFields",
    "account_hash",
    "account_hash_inputs",
    "decode_token_data",
    "derive_address",
    "encode_token_data",
    "hash_to_field",
    "poseidon",
    "token_data_hash",
    "token_data_hash_inputs",
]

FIELD_MODULUS = 21888242871839275222246405745257275088548364400416034343698204186575808495617
"""r, the BN254 scalar field order; every Poseidon input must be below it."""

HIGHEST_ADDRESS_PLUS_ONE = 2**248 - 1
"""Value of the sentinel element every address tree starts with."""

TOKEN_DISCRIMINATOR = 2
"""Wire value of the token account discriminator bytes ``[2, 0, 0, 0, 0, 0, 0, 0]``."""

_U64_MAX = 2**64 - 1
_U32_MAX = 2**32 - 1
_MAX_POSEIDON_INPUTS = 12
_KEY_CACHE = 4096

# Hasher construction builds round constants, so one instance per arity is kept.
_HASHERS: dict[int, Hasher] = {}


TOKEN_PROGRAM_ID = b58decode("cTokenmWW8bLPjZEBAUgYy3zKxQZW6VKi7bqNFEVv3m", length=32)
"""Owner program of compressed token accounts."""


# --------------------------------------------------------------------------- primitives


def poseidon(*inputs: bytes) -> bytes:
    """Circom-compatible Poseidon over BN254 of 1 to 12 big-endian 32-byte inputs.

    Raises ValueError for a wrong arity, an input that is not 32 bytes, or one >= r.
    """
    n = len(inputs)
    if not 1 <= n <= _MAX_POSEIDON_INPUTS:
        raise ValueError(f"poseidon takes 1 to {_MAX_POSEIDON_INPUTS} inputs, got {n}")
    for i, item in enumerate(inputs):
        if len(item) != 32:
            raise ValueError(f"poseidon input {i} must be 32 bytes, got {len(item)}")
    hasher = _HASHERS.get(n)
    if hasher is None:
        hasher = _HASHERS[n] = Hasher(n)
    # hash_raw only takes u64 integers; the bytes form is the one covering the field.
    return bytes.fromhex(hasher.hash_bytes_be([bytes(x) for x in inputs])[2:])


def hash_to_field(*parts: bytes) -> bytes:
    """H2F: Keccak-256 of ``parts ‖ 0xFF``, byte 0 cleared so it is below 2^248 < r."""
    return _keccak_truncated(*parts, b"\xff")


def _keccak_truncated(*parts: bytes) -> bytes:
    # One absorb of the joined parts: the per-call cost of the binding dominates 32-byte inputs.
    digest = keccak.new(data=b"".join(parts), digest_bits=256).digest()
    return b"\0" + digest[1:]


@lru_cache(maxsize=_KEY_CACHE)
def _key_field(key: bytes) -> bytes:
    """H2F of a 32-byte key. Owners, trees, mints and delegates repeat across many accounts."""
    return hash_to_field(key)


def _check_len(name: str, value: bytes, size: int = 32) -> None:
    if type(value) is bytes and len(value) == size:  # the common case, checked first
        return
    if not isinstance(value, bytes | bytearray) or len(value) != size:
        got = len(value) if isinstance(value, bytes | bytearray) else type(value).__name__
        raise ValueError(f"{name} must be {size} bytes, got {got}")


def _check_uint(name: str, value: int, maximum: int) -> None:
    if type(value) is int and 0 <= value <= maximum:  # the common case, checked first
        return
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= maximum:
        raise ValueError(f"{name} must be an integer in [0, {maximum}], got {value!r}")


def _word(value: int, width: int, *, big_endian: bool, tag: int | None = None) -> bytes:
    """32 zero bytes, ``value`` in the last ``width`` bytes, an optional tag before."""
    prefix = _ZEROS[32 - width] if tag is None else _ZEROS[31 - width] + bytes((tag,))
    return prefix + value.to_bytes(width, "big" if big_endian else "little")


_ZEROS = tuple(bytes(n) for n in range(33))


# --------------------------------------------------------------------------- accounts


def account_hash(
    *,
    owner: bytes,
    leaf_index: int,
    tree: bytes,
    lamports: int,
    address: bytes | None,
    discriminator: int | None,
    data_hash: bytes | None,
    batched: bool = False,
) -> bytes:
    """Hash of a compressed account in a v1 (height 26) state tree, or with ``batched`` in a batched one.

    ``discriminator`` is the wire integer ``u64.from_le_bytes(bytes)``. The account has
    data exactly when both ``discriminator`` and ``data_hash`` are given. A batched tree's hash
    has the same inputs with leaf index and lamports big-endian (Light's
    `program-libs/compressed-account/src/compressed_account.rs`, `is_batched`); ``tree`` is then the
    tree (`bmt…`), never its output queue.
    """
    return _account_hash(
        owner=owner,
        leaf_index=leaf_index,
        tree=tree,
        lamports=lamports,
        address=address,
        discriminator=discriminator,
        data_hash=data_hash,
        big_endian=batched,
    )


def account_hash_inputs(
    *,
    owner: bytes,
    leaf_index: int,
    tree: bytes,
    lamports: int,
    address: bytes | None,
    discriminator: int | None,
    data_hash: bytes | None,
    batched: bool = False,
) -> tuple[bytes, ...]:
    """The Poseidon inputs of ``account_hash``, checked: ``poseidon(*inputs)`` is the hash.

    Apart so that many accounts can be hashed in one batch (``poseidon_many``).
    """
    return _account_inputs(owner=owner, leaf_index=leaf_index, tree=tree, lamports=lamports, address=address,
                           discriminator=discriminator, data_hash=data_hash, big_endian=batched)


def _account_hash(**fields: object) -> bytes:
    """Account hash, integer byte order as a parameter: v1 little-, v2 big-endian."""
    return poseidon(*_account_inputs(**fields))


def _account_inputs(
    *,
    owner: bytes,
    leaf_index: int,
    tree: bytes,
    lamports: int,
    address: bytes | None,
    discriminator: int | None,
    data_hash: bytes | None,
    big_endian: bool,
) -> tuple[bytes, ...]:
    _check_len("owner", owner)
    _check_len("tree", tree)
    _check_uint("leaf_index", leaf_index, _U32_MAX)
    _check_uint("lamports", lamports, _U64_MAX)
    if (discriminator is None) != (data_hash is None):
        raise ValueError("discriminator and data_hash must be given together (account data)")
    inputs = [
        _key_field(bytes(owner)),
        _word(leaf_index, 4, big_endian=big_endian),
        _key_field(bytes(tree)),
    ]
    if lamports != 0:
        inputs.append(_word(lamports, 8, big_endian=big_endian, tag=1))
    if address is not None:
        _check_len("address", address)
        inputs.append(bytes(address))
    if discriminator is not None and data_hash is not None:
        _check_uint("discriminator", discriminator, _U64_MAX)
        _check_len("data_hash", data_hash)
        # The discriminator bytes are stored as-is; the wire integer is their LE value.
        inputs.append(_word(discriminator, 8, big_endian=False, tag=2))
        inputs.append(bytes(data_hash))
    return tuple(inputs)


def derive_address(*, program_id: bytes, seeds: list[bytes], address_tree: bytes) -> bytes:
    """v1 address: H2F(address tree ‖ seed).

    The seed is Keccak-256(program id ‖ seeds…) with byte 0 set to 0 (no 0xFF suffix).
    """
    _check_len("program_id", program_id)
    _check_len("address_tree", address_tree)
    seed = _keccak_truncated(program_id, *seeds)
    return hash_to_field(address_tree, seed)


# --------------------------------------------------------------------------- token data

TokenState = Literal["initialized", "frozen"]
_STATES: tuple[TokenState, TokenState] = ("initialized", "frozen")


@dataclass(frozen=True)
class TokenDataFields:
    """Decoded borsh ``TokenData`` of a compressed token account."""

    mint: bytes
    owner: bytes
    amount: int
    delegate: bytes | None = None
    state: TokenState = "initialized"
    tlv: bytes | None = None

    def __post_init__(self) -> None:
        _check_len("mint", self.mint)
        _check_len("owner", self.owner)
        _check_uint("amount", self.amount, _U64_MAX)
        if self.delegate is not None:
            _check_len("delegate", self.delegate)
        if self.state not in _STATES:
            raise ValueError(f"state must be one of {_STATES}, got {self.state!r}")
        if self.tlv is not None and not isinstance(self.tlv, bytes):
            raise ValueError(f"tlv must be bytes or None, got {type(self.tlv).__name__}")
        if self.tlv is not None and len(self.tlv) > _U32_MAX:
            raise ValueError("tlv is longer than a u32 length prefix allows")


def encode_token_data(fields: TokenDataFields) -> bytes:
    """Borsh bytes of ``TokenData``: 75 without delegate and tlv, no discriminator."""
    out = bytearray()
    out += fields.mint
    out += fields.owner
    out += fields.amount.to_bytes(8, "little")
    if fields.delegate is None:
        out.append(0)
    else:
        out.append(1)
        out += fields.delegate
    out.append(_STATES.index(fields.state))
    if fields.tlv is None:
        out.append(0)
    else:
        out.append(1)
        out += len(fields.tlv).to_bytes(4, "little")
        out += fields.tlv
    return bytes(out)


def decode_token_data(raw: bytes) -> TokenDataFields:
    """Parse borsh ``TokenData``; ValueError names the offset of the first bad byte."""
    raw = bytes(raw)
    pos = 0

    def take(n: int, what: str) -> bytes:
        nonlocal pos
        if pos + n > len(raw):
            raise ValueError(
                f"token data truncated: {what} needs {n} bytes at offset {pos}, "
                f"only {len(raw) - pos} left (total {len(raw)})"
            )
        chunk = raw[pos : pos + n]
        pos += n
        return chunk

    def option_tag(what: str) -> bool:
        at = pos
        tag = take(1, f"{what} option tag")[0]
        if tag not in (0, 1):
            raise ValueError(f"token data: {what} option tag at offset {at} must be 0 or 1, got {tag}")
        return tag == 1

    mint = take(32, "mint")
    owner = take(32, "owner")
    amount = int.from_bytes(take(8, "amount"), "little")
    delegate = take(32, "delegate") if option_tag("delegate") else None
    state_at = pos
    state_byte = take(1, "state")[0]
    if state_byte > 1:
        raise ValueError(
            f"token data: state at offset {state_at} must be 0 (initialized) or 1 (frozen), got {state_byte}"
        )
    tlv = None
    if option_tag("tlv"):
        size = int.from_bytes(take(4, "tlv length"), "little")
        tlv = take(size, "tlv")
    if pos != len(raw):
        raise ValueError(f"token data: {len(raw) - pos} trailing byte(s) after offset {pos}")
    return TokenDataFields(
        mint=mint,
        owner=owner,
        amount=amount,
        delegate=delegate,
        state=_STATES[state_byte],
        tlv=tlv,
    )


def token_data_hash(
    *, mint: bytes, owner: bytes, amount: int, delegate: bytes | None, frozen: bool, batched: bool = False
) -> bytes:
    """Data hash of a token account; tlv is not hashed. v1 puts the amount little-endian; with ``batched`` it is
    big-endian: the token program's ``hash_v2`` (token data version 2, discriminator ``[0,0,0,0,0,0,0,3]``, and
    the older builds' hash of every token account in a batched tree), Light's
    `program-libs/token-interface/src/state/compressed_token/hash.rs`."""
    return _token_data_hash(
        mint=mint,
        owner=owner,
        amount=amount,
        delegate=delegate,
        frozen=frozen,
        big_endian=batched,
    )


def token_data_hash_inputs(
    *, mint: bytes, owner: bytes, amount: int, delegate: bytes | None, frozen: bool, batched: bool = False
) -> tuple[bytes, ...]:
    """The Poseidon inputs of ``token_data_hash``, checked, for batch hashing."""
    return _token_inputs(mint=mint, owner=owner, amount=amount, delegate=delegate, frozen=frozen, big_endian=batched)


def _token_data_hash(**fields: object) -> bytes:
    """Token data hash with the amount byte order as a parameter: v1 little, v2 big."""
    return poseidon(*_token_inputs(**fields))


def _token_inputs(
    *,
    mint: bytes,
    owner: bytes,
    amount: int,
    delegate: bytes | None,
    frozen: bool,
    big_endian: bool,
) -> tuple[bytes, ...]:
    _check_len("mint", mint)
    _check_len("owner", owner)
    _check_uint("amount", amount, _U64_MAX)
    inputs = [
        _key_field(bytes(mint)),
        _key_field(bytes(owner)),
        _word(amount, 8, big_endian=big_endian),
    ]
    if delegate is not None:
        _check_len("delegate", delegate)
        inputs.append(_key_field(bytes(delegate)))
    if frozen:
        inputs.append(_ONE_WORD)
    return tuple(inputs)


_ONE_WORD = (1).to_bytes(32, "big")
