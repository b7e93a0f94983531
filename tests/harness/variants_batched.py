"""Batched (v2) trees served wrong, over real transactions of today's ledger (`Variant.ledger`).

Each variant serves one photon-head folder with one fault of the kind an indexer of batched trees makes: a
batch event lost, a nullified leaf zeroed as in v1 trees, a v2 hash with the leaf index little-endian, a root
index taken modulo another tree's root-history length (Photon's #342), and an account's place (the output
queue or the tree) mistaken either way. The run compares with a clean reference over the same folder.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from csi_conformance.groundwork.base58 import b58decode, b58encode
from csi_conformance.ledger_crypto import account_hash_inputs, poseidon
from csi_conformance.ledger_ingest import read_paths
from csi_conformance.reference_server.batched import BatchedStateTree
from csi_conformance.reference_server.ingest import ledger_from_blocks
from csi_conformance.reference_server.ledger import Ledger
from csi_conformance.reference_server.methods import call
from csi_conformance.reference_server.options import ServerOptions
from csi_conformance.schema import Contract

from .broken import Dispatch, Variant, _each_account, _ledger, ledger_folder

APPENDS_AND_NULLIFIES = "batched_tree_transactions"
"""10 BatchAppends then 5 BatchNullifies on one tree; every live account is in the tree."""
QUEUED_AND_APPENDED = "batch_append_nullify"
"""One tree with live accounts both in the tree (leaves below 30) and in its output queue."""
CAPACITY = 200
"""The root-history length of the folders' batched trees (the programs' test dumps)."""
V1_HISTORY = 2400


def _served_by(build: Callable[[], Ledger]) -> Callable[..., Any]:
    """A dispatch that answers from another ledger (built once, when first asked) than the clean one."""
    built: list[Ledger] = []

    def dispatch(real: Dispatch, method: str, params: Any) -> Any:
        if not built:
            built.append(build())
        return call(built[0], method, params, ServerOptions(), Contract.default())

    return dispatch


def _without_last_nullify() -> Ledger:
    """The folder's ledger as if its last BatchNullify never happened (the forester's transaction is kept)."""
    blocks = read_paths([ledger_folder(APPENDS_AND_NULLIFIES)])
    last = max((b, t) for b, block in enumerate(blocks) for t, tx in enumerate(block.transactions)
               if any(update.kind == "nullify" for update in tx.batch_updates))
    block = blocks[last[0]]
    txs = list(block.transactions)
    txs[last[1]] = dataclasses.replace(txs[last[1]], batch_updates=())
    blocks[last[0]] = dataclasses.replace(block, transactions=tuple(txs))
    return ledger_from_blocks(blocks)


def _nullified_zeroed() -> Ledger:
    """The folder's ledger with every nullified leaf zeroed, as a v1 tree nullifies."""
    ledger = ledger_from_blocks(read_paths([ledger_folder(APPENDS_AND_NULLIFIES)]))
    for tree in ledger.state_trees.values():
        if isinstance(tree, BatchedStateTree):
            written = {leaf: bytes(32) for leaf, nullifier in tree.nullifiers.values() if tree.leaf(leaf) == nullifier}
            tree.write_leaves(written, seq=tree.seq)
    return ledger


def _all_queued() -> Ledger:
    """The folder's ledger with every batched account taken as still in the output queue."""
    ledger = ledger_from_blocks(read_paths([ledger_folder(QUEUED_AND_APPENDED)]))
    batched = set(ledger.batched_trees())
    ledger.in_output_queue = lambda account: account.tree in batched
    return ledger


def _queued_as_appended(real: Dispatch, method: str, params: Any) -> Any:
    """In §2.10's form, an account still in the output queue proven by its tree's root (proveByIndices false)."""
    if method != "getValidityProof":
        return real(method, params)
    ledger = _ledger(QUEUED_AND_APPENDED)
    result = call(ledger, method, params, ServerOptions(proof_form="spec-2.10"), Contract.default())
    value = result["value"]
    for i, by_index in enumerate(value["proveByIndices"]):
        if by_index:
            tree = ledger.state_trees[b58decode(value["treeInfos"][i]["tree"], length=32)]
            value["proveByIndices"][i] = False
            value["roots"][i] = int.from_bytes(tree.root, "big")
            value["rootIndices"][i] = value["treeInfos"][i]["rootIndex"] = tree.root_index
    return result


def _batched_trees(folder: str) -> set[str]:
    return {b58encode(key) for key in _ledger(folder).batched_trees()}


_REAL_HASH: dict[str, str] = {}
"""The little-endian variant's hash -> the account's real hash, so it is asked by the hash it serves."""


def _real_hashes(params: Any) -> Any:
    if isinstance(params, str):
        return _REAL_HASH.get(params, params)
    if isinstance(params, list):
        return [_real_hashes(item) for item in params]
    return {k: _real_hashes(v) for k, v in params.items()} if isinstance(params, dict) else params


def _little_endian_leaf_index(real: Dispatch, method: str, params: Any) -> Any:
    """A batched account's hash computed with the leaf index little-endian (lamports still big-endian), served
    and looked up as the account's hash."""
    trees = _batched_trees(APPENDS_AND_NULLIFIES)

    def rehash(account: dict) -> None:
        if account["tree"] not in trees:
            return
        data = account.get("data")
        fields = dict(owner=b58decode(account["owner"], length=32), leaf_index=account["leafIndex"],
                      tree=b58decode(account["tree"], length=32), lamports=account["lamports"],
                      address=b58decode(account["address"], length=32) if account.get("address") else None,
                      discriminator=data["discriminator"] if data else None,
                      data_hash=b58decode(data["dataHash"], length=32) if data else None)
        inputs = list(account_hash_inputs(**fields, batched=True))
        inputs[1] = account_hash_inputs(**fields, batched=False)[1]
        wrong = b58encode(poseidon(*inputs))
        _REAL_HASH[wrong] = account["hash"]
        account["hash"] = wrong

    return _each_account(real(method, _real_hashes(params)), rehash)


def _root_index_mod_v1(real: Dispatch, method: str, params: Any) -> Any:
    """Photon before #342: a batched tree's root index taken modulo the v1 trees' 2400 instead of its own 200.
    The folders' trees never reach seq 200, where the two agree, so the tree stands for one that wrapped its
    history once: seq s + 200, whose index is s under its own length and s + 200 under 2400."""
    result = real(method, params)
    if method == "getValidityProof":
        trees = _batched_trees(QUEUED_AND_APPENDED)
        value = result["value"]
        for i, tree in enumerate(value["merkleTrees"]):
            if tree in trees:
                value["rootIndices"][i] = (value["rootIndices"][i] + CAPACITY) % V1_HISTORY
    return result


VARIANTS = [
    Variant("batched-nullify-ignored", "crypto", "crypto.tree-roots", dispatch=_served_by(_without_last_nullify),
            ledger=APPENDS_AND_NULLIFIES, clauses=("ledger-B2",)),
    Variant("batched-nullified-leaf-zeroed", "crypto", "crypto.tree-roots", dispatch=_served_by(_nullified_zeroed),
            ledger=APPENDS_AND_NULLIFIES, clauses=("ledger-B2",)),
    Variant("batched-leaf-index-little-endian", "crypto", "crypto.account-hash", dispatch=_little_endian_leaf_index,
            ledger=APPENDS_AND_NULLIFIES, clauses=("ledger-B1",)),
    Variant("batched-root-index-mod-2400", "crypto", "crypto.batched-accounts", dispatch=_root_index_mod_v1,
            ledger=QUEUED_AND_APPENDED, clauses=("ledger-B2",)),
    Variant("batched-queued-served-appended", "crypto", "crypto.batched-accounts",
            dispatch=_queued_as_appended, ledger=QUEUED_AND_APPENDED, clauses=("ledger-B3",)),
    Variant("batched-appended-served-queued", "crypto", "crypto.batched-accounts",
            dispatch=_served_by(_all_queued), ledger=QUEUED_AND_APPENDED, clauses=("ledger-B3",)),
]
