"""Replace Groth16 verifying keys inside a Solana program binary, in place.

Light's programs carry each verifying key as groth16-solana lays it out (trusted-setups.md): one
448-byte block α‖β‖γ‖δ (α a G1 point, 64 bytes; β, γ, δ G2 points, 128 bytes each as x.c1‖x.c0‖y.c1‖y.c0,
every coordinate 32 bytes big-endian) and, elsewhere, the K array K₀…Kₙ as one contiguous block of 64-byte
G1 points. The K array is read through a pointer, so the two blocks are found separately. A key is replaced
only when each of its blocks occurs exactly once and holds the old key's bytes: a binary that is not the one
expected is refused, never patched by guesswork. The size never changes, so no offset or relocation moves.
"""

from __future__ import annotations

from collections.abc import Sequence

from csi_conformance.ledger_proofs.pairing import G1Affine, G2Affine
from csi_conformance.ledger_proofs.verify import VerifyingKey

__all__ = ["head_block", "k_block", "replace_verifying_keys"]


def _g1(point: G1Affine) -> bytes:
    x, y = point
    return x.to_bytes(32, "big") + y.to_bytes(32, "big")


def _g2(point: G2Affine) -> bytes:
    (x0, x1), (y0, y1) = point
    return b"".join(c.to_bytes(32, "big") for c in (x1, x0, y1, y0))


def head_block(key: VerifyingKey) -> bytes:
    """α‖β‖γ‖δ as the program holds them: 448 bytes."""
    return _g1(key.alpha) + _g2(key.beta) + _g2(key.gamma) + _g2(key.delta)


def k_block(key: VerifyingKey) -> bytes:
    """K₀…Kₙ as the program holds them: 64·(n+1) bytes."""
    return b"".join(_g1(point) for point in key.k)


def _only_place(data: bytes | bytearray, block: bytes, what: str) -> int:
    """The one offset of `block` in `data`; ValueError naming `what` when it is absent or occurs twice."""
    first = data.find(block)
    if first < 0:
        raise ValueError(f"{what} is not in the program")
    if data.find(block, first + 1) >= 0:
        raise ValueError(f"{what} occurs more than once in the program")
    return first


def replace_verifying_keys(data: bytes, pairs: Sequence[tuple[VerifyingKey, VerifyingKey]]) -> bytes:
    """`data` with each (old, new) pair's old key overwritten by the new one, same size.

    ValueError naming the key when the two keys differ in shape (number of public inputs), when a block of
    the old key is not in `data` or occurs more than once, or when two pairs name the same old key."""
    patched = bytearray(data)
    claimed: list[tuple[int, int, str]] = []
    for old, new in pairs:
        if old.public_inputs != new.public_inputs:
            raise ValueError(f"{old.name}: the old key takes {old.public_inputs} public inputs, "
                             f"the new key {new.name} {new.public_inputs}")
        for label, old_block, new_block in (("α‖β‖γ‖δ", head_block(old), head_block(new)),
                                            ("K array", k_block(old), k_block(new))):
            where = _only_place(data, old_block, f"{old.name}: its {label}")
            end = where + len(old_block)
            for start, stop, other in claimed:
                if where < stop and start < end:
                    raise ValueError(f"{old.name}: its {label} overlaps the block of {other} already replaced")
            assert bytes(patched[where:end]) == old_block
            patched[where:end] = new_block
            claimed.append((where, end, f"{old.name} ({label})"))
    assert len(patched) == len(data)
    return bytes(patched)
