"""Merkle contexts of batched trees served wrong: the tree and queue a client spends through.

In §2.10's form (`getValidityProof` with `treeInfos`), an account still in a batched tree's output queue
answered with the tree as its own queue, or typed "state" with no queue at all (two faults an indexer of
today's chain was measured to make, which no check judged); in the V2 answers, one tree given two queues,
and the root index of a batched tree's appended account taken with another tree's history when asked beside a
v1 tree's account; a batched tree's account proven by the empty tree's root. tests/harness/test_tree_infos.py
runs them without a ledger too (discovery alone).
"""

from __future__ import annotations

import copy
from typing import Any

from csi_conformance.groundwork.base58 import b58encode
from csi_conformance.ledger_crypto import BATCHED_STATE_HEIGHT, zero_hashes
from csi_conformance.reference_server.methods import call
from csi_conformance.reference_server.options import ServerOptions
from csi_conformance.schema import Contract

from .broken import Dispatch, Variant, _ledger

TODAY = "photon-366a15b"
QUEUED_AND_APPENDED = "batch_append_nullify"
"""A batched tree with live accounts both in the tree and in its output queue, beside a v1 tree."""
APPENDED = "batched_tree_transactions"
"""One batched tree whose live accounts are all appended."""
OTHER_HISTORY = 2400
BATCHED_STATE = 3
EMPTY_ROOT = b58encode(zero_hashes(BATCHED_STATE_HEIGHT)[-1])
A_QUEUE = "9hD5eK9KpRvqNwr2ijrgE6qpDs2hVpPkR29KkFpZquoV"
"""A key that is no tree's queue in any ledger served here."""


def _spec_form(folder: str, change: Any) -> Any:
    """getValidityProof in §2.10's form over `folder`, each element proven by index changed by `change(info)`."""
    def dispatch(real: Dispatch, method: str, params: Any) -> Any:
        if method != "getValidityProof":
            return real(method, params)
        result = call(_ledger(folder), method, params, ServerOptions(proof_form="spec-2.10"), Contract.default())
        value = result["value"]
        for info, by_index in zip(value["treeInfos"], value["proveByIndices"], strict=False):
            if by_index:
                change(info)
        return result

    return dispatch


def _queue_as_tree(info: dict) -> None:
    info["queue"] = info["tree"]


def _state_without_queue(info: dict) -> None:
    info["treeType"] = "state"
    del info["queue"]


def _two_queues(real: Dispatch, method: str, params: Any) -> Any:
    """In a getMultipleCompressedAccountsV2 answer, every second account of the first tree (by name) given a queue
    of no tree: that tree has two queues, and no queue stands in front of two trees."""
    result = real(method, params)
    if method != "getMultipleCompressedAccountsV2":
        return result
    result = copy.deepcopy(result)
    items = [item for item in result["value"]["items"] if isinstance(item, dict)]
    first = min((item["merkleContext"]["tree"] for item in items), default=None)
    for item in [item for item in items if item["merkleContext"]["tree"] == first][1::2]:
        item["merkleContext"]["queue"] = A_QUEUE
    return result


def _batched_root_index_other_history(real: Dispatch, method: str, params: Any) -> Any:
    """In a getValidityProofV2 over accounts of several trees, a batched tree's appended accounts given the root
    index of the v1 history (offset by it); asked alone, or proven by index, they are answered right."""
    result = real(method, params)
    accounts = result.get("value", {}).get("accounts") if method == "getValidityProofV2" else None
    if not accounts or len({account["merkleContext"]["tree"] for account in accounts}) < 2:
        return result
    result = copy.deepcopy(result)
    for account in result["value"]["accounts"]:
        if account["merkleContext"]["treeType"] == BATCHED_STATE and not account["rootIndex"]["proveByIndex"]:
            account["rootIndex"]["rootIndex"] += OTHER_HISTORY
    return result


def _empty_root(real: Dispatch, method: str, params: Any) -> Any:
    """Every account of a getValidityProof answer (wire form) proven by the empty batched tree's root."""
    result = real(method, params)
    if method == "getValidityProof" and isinstance(result, dict):
        result = copy.deepcopy(result)
        result["value"]["roots"] = [EMPTY_ROOT for _ in result["value"]["roots"]]
    return result


VARIANTS = [
    Variant("tree-infos-queue-given-as-tree", "crypto", "crypto.validity-tree-infos",
            dispatch=_spec_form(QUEUED_AND_APPENDED, _queue_as_tree), ledger=QUEUED_AND_APPENDED,
            clauses=("ledger-B3",)),
    Variant("tree-infos-state-without-queue", "crypto", "crypto.validity-tree-infos",
            dispatch=_spec_form(QUEUED_AND_APPENDED, _state_without_queue), ledger=QUEUED_AND_APPENDED,
            clauses=("ledger-B3",)),
    Variant("today-merkle-context-two-queues", "v2", "v2.merkle-context", dispatch=_two_queues, api=TODAY),
    Variant("today-batched-root-index-other-history", "v2", "v2.validity-root-indices",
            dispatch=_batched_root_index_other_history, ledger=QUEUED_AND_APPENDED, api=TODAY),
    Variant("batched-empty-root", "crypto", "crypto.batched-accounts", dispatch=_empty_root, ledger=APPENDED,
            clauses=("ledger-B2",)),
]
