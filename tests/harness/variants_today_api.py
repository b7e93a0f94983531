"""The API clients call today (`--api photon-366a15b`) served wrong: each variant one fault of the V2 answers.

A V2 method missing ("Method not found"), an account's `merkleContext.queue` the queue of another tree, an
appended batched account answered `proveByIndex: true`, and a combined getValidityProofV2 whose root indices
of a second tree's accounts are taken with another tree's history length (Photon's #342). Each is served, and
certified, under the second contract; the ones compared with a reference have a clean one over the same ledger.
"""

from __future__ import annotations

import copy
from typing import Any

from csi_conformance.reference_server.errors import METHOD_NOT_FOUND, RpcError

from .broken import Dispatch, Variant

TODAY = "photon-366a15b"
MISSING = "getCompressedAccountsByOwnerV2"
"""What stateless.js 0.23.3 calls for an owner's accounts."""
QUEUED_AND_APPENDED = "batch_append_nullify"
"""One tree with live accounts both in the tree and in its output queue (variants_batched.py)."""
OTHER_HISTORY = 2400
"""A v1 tree's root-history length: what a root index taken with another tree's history adds."""
BATCHED_STATE = 3


def _method_missing(real: Dispatch, method: str, params: Any) -> Any:
    if method == MISSING:
        raise RpcError(METHOD_NOT_FOUND, f"Method not found: {method!r}")
    return real(method, params)


def _items(result: Any) -> list[dict]:
    value = result.get("value") if isinstance(result, dict) else None
    items = value.get("items") if isinstance(value, dict) else None
    return [item for item in items or [] if isinstance(item, dict)]


def _queue_of_another_tree(real: Dispatch, method: str, params: Any) -> Any:
    """The accounts of the first tree (by name) answered with the queue of the next tree in the same answer."""
    result = real(method, params)
    if method != "getMultipleCompressedAccountsV2":
        return result
    result = copy.deepcopy(result)
    queues = {item["merkleContext"]["tree"]: item["merkleContext"]["queue"] for item in _items(result)}
    if len(queues) < 2:
        return result
    first, second = sorted(queues)[:2]
    for item in _items(result):
        if item["merkleContext"]["tree"] == first:
            item["merkleContext"]["queue"] = queues[second]
    return result


def _appended_by_index(real: Dispatch, method: str, params: Any) -> Any:
    """Every batched account answered as still in the output queue, the appended ones too."""
    result = real(method, params)
    if method != "getMultipleCompressedAccountsV2":
        return result
    result = copy.deepcopy(result)
    for item in _items(result):
        if item["merkleContext"]["treeType"] == BATCHED_STATE:
            item["proveByIndex"] = True
    return result


def _root_index_other_history(real: Dispatch, method: str, params: Any) -> Any:
    """In a getValidityProofV2 over accounts of several trees, the root indices of every tree's accounts but the
    first's taken with the first tree's history length (offset by it: the real data never wraps a history)."""
    result = real(method, params)
    accounts = result.get("value", {}).get("accounts") if method == "getValidityProofV2" else None
    if not accounts or len({account["merkleContext"]["tree"] for account in accounts}) < 2:
        return result
    result = copy.deepcopy(result)
    first = result["value"]["accounts"][0]["merkleContext"]["tree"]
    for account in result["value"]["accounts"]:
        if account["merkleContext"]["tree"] != first and not account["rootIndex"]["proveByIndex"]:
            account["rootIndex"]["rootIndex"] += OTHER_HISTORY
    return result


VARIANTS = [
    Variant("today-v2-method-missing", "v2", "v2.method-present", dispatch=_method_missing, api=TODAY),
    Variant("today-merkle-context-queue-of-another-tree", "v2", "v2.merkle-context", dispatch=_queue_of_another_tree,
            scenario=True, api=TODAY),
    Variant("today-prove-by-index-appended", "v2", "v2.prove-by-index", dispatch=_appended_by_index,
            ledger=QUEUED_AND_APPENDED, api=TODAY),
    Variant("today-root-indices-other-history", "v2", "v2.validity-root-indices", dispatch=_root_index_other_history,
            scenario=True, api=TODAY),
]
