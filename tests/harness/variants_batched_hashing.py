"""Hashes and root indices of today's ledger served wrong, over real transactions with batched trees.

A classic token account of a batched tree served with a v2 data hash (amount big-endian) of another amount, and
a batched tree's root index moved one place in its own root history: each must FAIL by the check that judges
that rule as Light's programs apply it, where the right answers (a v2 hash, a batched tree's own root index)
pass (tests/harness/test_batched_hashing.py).
"""

from __future__ import annotations

import base64
from typing import Any

from csi_conformance.groundwork.base58 import b58encode
from csi_conformance.ledger_crypto import decode_token_data, token_data_hash

from .broken import Dispatch, Variant, _each_account, _ledger
from .variants_batched import APPENDS_AND_NULLIFIES, CAPACITY

TOKEN_FOLDER = "batched_tree_token_transactions"
"""Photon's `batched_tree_token_transactions` (2 real transactions: mint_to and a transfer of compressed tokens
into a batched tree, their data hashes v2), in `PHOTON_HEAD` as the other folders."""


def _batched_trees(folder: str) -> set[str]:
    return {b58encode(key) for key in _ledger(folder).batched_trees()}


def _other_v2_hash(account: dict) -> None:
    """The v2 hash of the account's token data with the amount one more: a v2 hash, of other data."""
    data = account.get("data")
    if account["tree"] not in _batched_trees(TOKEN_FOLDER) or not isinstance(data, dict):
        return
    try:
        fields = decode_token_data(base64.b64decode(data["data"]))
    except (ValueError, TypeError, KeyError):
        return
    data["dataHash"] = b58encode(token_data_hash(mint=fields.mint, owner=fields.owner, amount=fields.amount + 1,
                                                 delegate=fields.delegate, frozen=fields.state == "frozen",
                                                 batched=True))


def _v2_hash_altered(real: Dispatch, method: str, params: Any) -> Any:
    return _each_account(real(method, params), _other_v2_hash)


def _batched_root_index_moved(real: Dispatch, method: str, params: Any) -> Any:
    """Every batched tree's root index one place further in its own root history (the root left as it is)."""
    result = real(method, params)
    if method == "getValidityProof" and isinstance(result, dict):
        trees = _batched_trees(APPENDS_AND_NULLIFIES)
        value = result["value"]
        for i, tree in enumerate(value.get("merkleTrees") or []):
            if tree in trees:
                value["rootIndices"][i] = (value["rootIndices"][i] + 1) % CAPACITY
    return result


VARIANTS = [
    Variant("batched-token-v2-hash-altered", "crypto", "crypto.token-data-hash", dispatch=_v2_hash_altered,
            ledger=TOKEN_FOLDER, clauses=("ledger-H2",)),
    Variant("batched-root-index-moved", "crypto", "crypto.tree-roots", dispatch=_batched_root_index_moved,
            ledger=APPENDS_AND_NULLIFIES, clauses=("ledger-B2",)),
]
