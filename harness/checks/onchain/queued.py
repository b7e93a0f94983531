"""Where a target says a queued account is: what of a getCompressedAccount answer a spend by index needs.

An account of a batched state tree waits in the tree's output queue until the forester appends it;
a transaction spends it by index, naming the tree and the leaf index, with no proof (ledger-B3).
The account's tree is the batched tree, never its queue (ledger-B1), and its leaf index the queue's
index. So the place a target serves, `tree` and `leafIndex`, is exactly what such a transaction
takes; the programs then say whether the chain holds the account there. Nothing here decides a
verdict: it reads the place, or says what keeps it out of a transaction.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from csi_conformance.groundwork.base58 import b58decode
from csi_conformance.harness.core.paths import result_value
from csi_conformance.harness.core.values import clip
from csi_conformance.harness.verify.validity import Problem

__all__ = ["ACCOUNT_METHOD", "LEAF_INDEX_LIMIT", "Place", "served_place"]

ACCOUNT_METHOD = "getCompressedAccount"
LEAF_INDEX_LIMIT = 2**32
"""A leaf index travels in the transaction as a u32."""


@dataclass(frozen=True)
class Place:
    """The tree (base58) and leaf index a target serves for an account."""

    tree: str
    leaf_index: int


def served_place(value: Any) -> Place | Problem:
    """The place of a CompressedAccount answer, or what keeps it out of a spend by index."""
    if not isinstance(value, dict):
        return Problem("No account", "a CompressedAccount object", clip(value), ("4.2-M1",), result_value())
    tree, index = value.get("tree"), value.get("leafIndex")
    if not isinstance(tree, str) or not _is_key(tree):
        return Problem("Tree cannot be put into a transaction", "the account's tree: a base58 public key",
                       clip(tree), ("ledger-B1",), result_value("tree"))
    if type(index) is not int or not 0 <= index < LEAF_INDEX_LIMIT:
        return Problem("Leaf index cannot be put into a transaction", f"an integer below {LEAF_INDEX_LIMIT} (u32)",
                       clip(index), ("ledger-B3",), result_value("leafIndex"))
    return Place(tree, index)


def _is_key(text: str) -> bool:
    try:
        b58decode(text, length=32)
    except ValueError:
        return False
    return True
