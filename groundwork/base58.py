"""The kit's one base58 codec (Bitcoin alphabet): the wire form of every key, hash and signature.

It lives in the lowest room so that the contract's formats (`base58-32`, `base58-64`), the ledger's
hashing and the harness all decode the same way: strictly, because it reads untrusted answers.
Two digits per division in both directions: every answer of the reference server encodes several
keys, and this beats the `base58` package's digit-by-digit loop (benchmarks/README.md).
"""

from __future__ import annotations

__all__ = ["b58decode", "b58encode"]

_TEXT = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
_ALPHABET = frozenset(_TEXT)
_PAIRS = tuple(a + b for a in _TEXT for b in _TEXT)
_DIGITS = bytes(_TEXT.index(chr(c)) if chr(c) in _ALPHABET else 255 for c in range(256))
"""Byte -> base58 digit value, 255 for a byte outside the alphabet (a `bytes.translate` table)."""


def b58encode(b: bytes) -> str:
    """Base58 text of ``b``; each leading zero byte becomes a leading "1"."""
    raw = bytes(b)
    n = int.from_bytes(raw, "big")
    pairs = []
    while n:
        n, pair = divmod(n, 3364)
        pairs.append(_PAIRS[pair])
    zeros = len(raw) - len(raw.lstrip(b"\0"))
    return "1" * zeros + "".join(reversed(pairs)).lstrip("1")


def b58decode(s: str, *, length: int | None = None) -> bytes:
    """Bytes of a base58 string, optionally requiring an exact decoded length.

    Whitespace, characters outside the alphabet, non-strings and a wrong length all raise ValueError
    (the `base58` package strips trailing whitespace instead).
    """
    if not isinstance(s, str):
        raise ValueError(f"expected a base58 string, got {type(s).__name__}")
    digits = s.encode("utf-8", "surrogatepass").translate(_DIGITS)
    if 255 in digits:
        bad = sorted(set(s) - _ALPHABET)
        raise ValueError(f"invalid base58 character(s) {''.join(bad)!r} in {s!r}")
    significant = digits.lstrip(b"\0")
    n = 0
    start = len(significant) % 2
    if start:
        n = significant[0]
    for at in range(start, len(significant), 2):
        n = n * 3364 + significant[at] * 58 + significant[at + 1]
    raw = b"\0" * (len(digits) - len(significant)) + n.to_bytes((n.bit_length() + 7) // 8, "big")
    if length is not None and len(raw) != length:
        raise ValueError(f"expected {length} bytes from base58 {s!r}, got {len(raw)}")
    return raw
