"""The batched trees' queues as Photon shows them to foresters: getQueueInfo and getQueueElements (photon 366a15b,
`src/api/method/get_queue_info.rs`, `get_queue_elements.rs`), over the reference's batched queues
(reference_server/batched.py).

Queue types are Light's `QueueType` (program-libs/compressed-account/src/lib.rs): 3 the input (nullifier)
queue of a batched state tree, 4 a batched address tree's queue, 5 its output queue.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from csi_conformance.groundwork.base58 import b58decode, b58encode
from csi_conformance.ledger_crypto import hash_chain
from csi_conformance.reference_server.batched import BatchedStateTree
from csi_conformance.reference_server.errors import SERVER_ERROR, RpcError
from csi_conformance.reference_server.ledger import Ledger
from csi_conformance.reference_server.methods.registry import rpc_method
from csi_conformance.reference_server.methods.shapes import key_text
from csi_conformance.reference_server.options import ServerOptions
from csi_conformance.schema import Method

__all__ = ["QUEUE_TYPES"]

QUEUE_TYPES = {"input_state_v2": 3, "address_v2": 4, "output_state_v2": 5}
MAX_QUEUE_ELEMENTS = 30_000
"""Photon's `MAX_QUEUE_ELEMENTS`: the largest `limit` one queue request may ask."""
ZKP_BATCH_SIZE = 500
"""Light's `DEFAULT_ZKP_BATCH_SIZE` (program-libs/batched-merkle-tree/src/constants.rs), Photon's default."""


def _output_queue(tree: BatchedStateTree) -> list[tuple[int, bytes]]:
    """(leaf index, account hash) of the outputs not yet appended, by leaf index."""
    return sorted((index, hash_) for index, hash_ in tree.outputs.items() if tree.in_queue(index))


def _input_queue(tree: BatchedStateTree) -> list[tuple[int, int, bytes]]:
    """(queue index, leaf index, nullifier) of the spends whose nullifier is not yet written in the tree."""
    def written(leaf_index: int, nullifier: bytes) -> bool:
        return leaf_index < tree.next_index and tree.leaf(leaf_index) == nullifier

    return sorted((q, leaf, nul) for q, (leaf, nul) in tree.nullifiers.items() if not written(leaf, nul))


@rpc_method("getQueueInfo")
def get_queue_info(ledger: Ledger, params: Mapping[str, Any], options: ServerOptions, method: Method) -> Any:
    """`{queues: [{tree, queue, queueType, queueSize}], slot}` for every batched tree (or those in `trees`):
    a state tree's input and output queue, an address tree's own queue. Ordered by tree, then queue type
    (Photon's order is a hash map's)."""
    wanted = params.get("trees")
    chosen = None
    if wanted is not None:
        try:
            chosen = {b58decode(text, length=32) for text in wanted}
        except ValueError as exc:
            raise RpcError(SERVER_ERROR, f"Validation Error: Invalid pubkey: {exc}") from None
    queues = []
    for key in sorted(ledger.batched_trees()):
        tree = ledger.state_trees[key]
        if chosen is None or key in chosen:
            assert isinstance(tree, BatchedStateTree)
            queues.append(_info(key, tree.queue, "input_state_v2", len(_input_queue(tree))))
            queues.append(_info(key, tree.queue, "output_state_v2", len(_output_queue(tree))))
    for key, address_queue in sorted(ledger.batched_address_trees.items()):
        if chosen is None or key in chosen:
            waiting = sum(int.from_bytes(a, "big") not in address_queue.tree for a in address_queue.queued.values())
            queues.append(_info(key, key, "address_v2", waiting))
    return {"queues": queues, "slot": ledger.indexed_slot}


def _info(tree: bytes, queue: bytes, kind: str, size: int) -> dict[str, Any]:
    return {"tree": key_text(tree), "queue": key_text(queue), "queueType": QUEUE_TYPES[kind], "queueSize": size}


@rpc_method("getQueueElements")
def get_queue_elements(ledger: Ledger, params: Mapping[str, Any], options: ServerOptions, method: Method) -> Any:
    """`{context, stateQueue?}` of a batched state tree: the queued elements in full zkp batches, their leaves
    in the tree, one hash chain a batch, the tree's root and seq. `stateQueue` is left out when neither queue
    has a full batch, as Photon leaves it out; its `nodes` (proof nodes for the forester) are not served, and
    Photon leaves an empty `nodes` out too. The address queue is refused by name."""
    requests = {kind: params.get(kind) for kind in ("outputQueue", "inputQueue", "addressQueue")}
    if all(request is None for request in requests.values()):
        raise RpcError(SERVER_ERROR, "Validation Error: At least one queue must be requested")
    if requests["addressQueue"] is not None:
        raise RpcError(SERVER_ERROR, "Validation Error: the address queue's elements are not served by this "
                                     "reference (its proof nodes and subtrees are forester data)")
    key = b58decode(params["tree"], length=32)
    tree = ledger.state_trees.get(key)
    if not isinstance(tree, BatchedStateTree):
        raise RpcError(SERVER_ERROR, f"Validation Error: {params['tree']} is not a batched state tree")
    answer: dict[str, Any] = {"context": {"slot": ledger.indexed_slot}}
    parts: dict[str, Any] = {}
    if requests["outputQueue"] is not None:
        parts["outputQueue"] = _output_part(tree, requests["outputQueue"])
    if requests["inputQueue"] is not None:
        parts["inputQueue"] = _input_part(tree, requests["inputQueue"])
    if any(part["leafIndices"] for part in parts.values()):
        answer["stateQueue"] = {"initialRoot": b58encode(tree.root), "rootSeq": tree.seq, **parts}
    return answer


def _batch_size(request: Mapping[str, Any]) -> int:
    if request["limit"] > MAX_QUEUE_ELEMENTS:
        raise RpcError(SERVER_ERROR, f"Validation Error: Too many queue elements requested {request['limit']}. "
                                     f"Maximum allowed: {MAX_QUEUE_ELEMENTS}")
    return request.get("zkpBatchSize") or ZKP_BATCH_SIZE


def _full_batches(items: list, request: Mapping[str, Any], start: int | None, first: int | None) -> list:
    if start is not None and first is not None and first > start:
        raise RpcError(SERVER_ERROR, f"Validation Error: Requested start_index {start} but first_queue_index "
                                     f"{first} is later (possible pruning)")
    size = _batch_size(request)
    items = items[: request["limit"]]
    return items[: len(items) // size * size]


def _leaf(tree: BatchedStateTree, index: int) -> str:
    return b58encode(tree.leaf(index) if index < tree.next_index else bytes(32))


def _chains(values: list[bytes], size: int) -> list[str]:
    return [b58encode(hash_chain(values[at : at + size])) for at in range(0, len(values), size)]


def _output_part(tree: BatchedStateTree, request: Mapping[str, Any]) -> dict[str, Any]:
    start = request.get("startIndex")
    queued = [item for item in _output_queue(tree) if start is None or item[0] >= start]
    items = _full_batches(queued, request, start, queued[0][0] if queued else None)
    first = items[0][0] if items else 0
    return {"leafIndices": [index for index, _ in items], "accountHashes": [b58encode(h) for _, h in items],
            "leaves": [_leaf(tree, index) for index, _ in items], "firstQueueIndex": first, "nextIndex": first,
            "leavesHashChains": _chains([h for _, h in items], _batch_size(request))}


def _input_part(tree: BatchedStateTree, request: Mapping[str, Any]) -> dict[str, Any]:
    start = request.get("startIndex")
    queued = [item for item in _input_queue(tree) if start is None or item[0] >= start]
    items = _full_batches(queued, request, start, queued[0][0] if queued else None)
    spends = [tree.spends[leaf] for _, leaf, _ in items]
    return {"leafIndices": [leaf for _, leaf, _ in items], "accountHashes": [b58encode(s.account_hash) for s in spends],
            "leaves": [_leaf(tree, leaf) for _, leaf, _ in items], "txHashes": [b58encode(s.tx_hash) for s in spends],
            "nullifiers": [b58encode(n) for _, _, n in items], "firstQueueIndex": items[0][0] if items else 0,
            "leavesHashChains": _chains([n for _, _, n in items], _batch_size(request))}
