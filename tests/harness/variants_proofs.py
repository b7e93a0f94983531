"""Broken validity proofs: what a misconfigured prover or indexer ships, each caught by crypto.groth16-proof.

Served over the reference with the real light prover (tests/harness/test_proof_check.py), each
variant alters one thing of a real answer: a root, a leaf, a proof point, or the order of the
elements (so the public inputs no longer come in the order the proof was made with). A
placeholder proof (valid points, no proof) fails too. `UNVERIFIED_VARIANTS` hold the `null` proof,
which is UNVERIFIED rather than FAIL, so it stays out of the generic broken-variant tests.
"""

from __future__ import annotations

from typing import Any

from csi_conformance.groundwork.base58 import b58decode, b58encode
from csi_conformance.ledger_crypto.groth16 import deterministic_proof

from .broken import Variant, _on

CHECK = "crypto.groth16-proof"
ONLY = (CHECK,)


def _bumped(value: Any) -> Any:
    """Another valid field element: the value plus one (a base58 hash or, in §2.10's reading, an integer)."""
    if isinstance(value, int):
        return value + 1
    return b58encode((int.from_bytes(b58decode(value, length=32), "big") + 1).to_bytes(32, "big"))


def _value(result: Any) -> dict | None:
    value = result.get("value") if isinstance(result, dict) else None
    return value if isinstance(value, dict) else None


def _root_altered(params: Any, result: Any) -> Any:
    if (value := _value(result)) and value.get("roots"):
        value["roots"][0] = _bumped(value["roots"][0])
    return result


def _leaf_altered(params: Any, result: Any) -> Any:
    if (value := _value(result)) and value.get("leaves"):
        value["leaves"][0] = _bumped(value["leaves"][0])
    return result


def _a_not_negated(params: Any, result: Any) -> Any:
    """A instead of −A, the commonest conversion slip: the same x with the other y."""
    if (value := _value(result)) and isinstance(value.get("compressedProof"), dict):
        value["compressedProof"]["a"][0] ^= 0x80
    return result


def _elements_reversed(params: Any, result: Any) -> Any:
    """The elements listed last to first: addresses before accounts, leaves in the other order."""
    if value := _value(result):
        for key in ("roots", "rootIndices", "leafIndices", "leaves", "merkleTrees", "treeInfos", "proveByIndices"):
            if isinstance(value.get(key), list):
                value[key].reverse()
    return result


def _placeholder(params: Any, result: Any) -> Any:
    if value := _value(result):
        value["compressedProof"] = deterministic_proof(b"a placeholder, not a proof")
    return result


def _null(params: Any, result: Any) -> Any:
    if value := _value(result):
        value["compressedProof"] = None
    return result


def _variant(name: str, change: Any) -> Variant:
    return Variant(name, "crypto", CHECK, dispatch=_on("getValidityProof", change), only=ONLY, prover=True,
                   clauses=("ledger-P2",))


VARIANTS: list[Variant] = [
    _variant("proof-root-altered", _root_altered),
    _variant("proof-leaf-altered", _leaf_altered),
    _variant("proof-point-altered", _a_not_negated),
    _variant("proof-inputs-reordered", _elements_reversed),
    _variant("proof-placeholder", _placeholder),
]

UNVERIFIED_VARIANTS: list[Variant] = [_variant("proof-null", _null)]
