"""Merkle proofs Photon serves beside the spec's 19 (photon 366a15b): account proofs, V2 new-address proofs
and `getValidityProofV2`.

An account still in a batched tree's output queue has no leaf to prove: the V1 proofs refuse it, the V2
ones answer `proveByIndex: true` (`src/api/method/get_compressed_account_proof/v2.rs`). Root indices are
each tree's own (`rootSeq % that tree's root history`, Photon PR #342), never one tree's for all.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from csi_conformance.groundwork.base58 import b58decode, b58encode
from csi_conformance.ledger_crypto import AddressExistsError, fold_path, zero_hashes
from csi_conformance.reference_server.errors import SERVER_ERROR, RpcError
from csi_conformance.reference_server.ledger import Ledger
from csi_conformance.reference_server.methods.photon_accounts import PAGE_LIMIT
from csi_conformance.reference_server.methods.photon_shapes import (
    DEFAULT_KEY,
    account_v2_json,
    address_tree_context,
    merkle_context_json,
)
from csi_conformance.reference_server.methods.proofs import get_validity_proof, range_proof
from csi_conformance.reference_server.methods.registry import rpc_method
from csi_conformance.reference_server.methods.shapes import key_text
from csi_conformance.reference_server.options import ServerOptions
from csi_conformance.reference_server.records import Account
from csi_conformance.schema import Contract, Method

__all__ = ["MAX_NEW_ADDRESSES"]

MAX_NEW_ADDRESSES = 1000
"""Photon's `MAX_ADDRESSES` (`src/api/method/get_multiple_new_address_proofs.rs`)."""


def _not_found(message: str) -> RpcError:
    return RpcError(SERVER_ERROR, f"Record Not Found: {message}")


def _known(ledger: Ledger, text: str) -> Account:
    """A live account by hash; Photon's proofs name no spent account (its leaf no longer holds the hash)."""
    account = ledger.live_by_hash(b58decode(text, length=32))
    if account is None:
        raise _not_found(f"Account not found: {text}")
    return account


def _path(ledger: Ledger, account: Account) -> list[bytes]:
    """The siblings of the account's leaf, also at a position the tree has not reached yet (an output-queue
    account's zero leaf): a sibling subtree beyond the tree's end is zero, one holding leaves is folded up."""
    tree = ledger.state_trees[account.tree]
    index = account.leaf_index
    if index < tree.next_index:
        return tree.proof(index)
    zeros = zero_hashes(tree.height)
    path = []
    for level in range(tree.height):
        first = ((index >> level) ^ 1) << level
        # the sibling subtree's first leaf sits at offset 0 of it: fold it up `level` levels to the sibling node
        path.append(zeros[level] if first >= tree.next_index
                    else fold_path(tree.leaf(first), 0, tree.proof(first)[:level]))
    return path


def _proof_v1(ledger: Ledger, account: Account) -> dict[str, Any]:
    """`{proof, root, leafIndex, hash, merkleTree, rootSeq}` of an account whose leaf is in its tree."""
    if ledger.in_output_queue(account):
        raise _not_found(f"Leaf nodes not found for {b58encode(account.hash)}: still in the output queue of a "
                         "batched tree, provable by index only")
    tree = ledger.state_trees[account.tree]
    return {"proof": [b58encode(node) for node in _path(ledger, account)], "root": b58encode(tree.root),
            "leafIndex": account.leaf_index, "hash": b58encode(account.hash), "merkleTree": key_text(account.tree),
            "rootSeq": tree.seq}


def _proof_v2(ledger: Ledger, account: Account) -> dict[str, Any]:
    """`GetCompressedAccountProofResponseValueV2`: the V1 proof without `merkleTree`, with `proveByIndex` and
    the tree context the account is in (a `TreeContextInfo`: no `nextTreeContext`)."""
    tree = ledger.state_trees[account.tree]
    context = account_v2_json(ledger, account)["merkleContext"]
    tree_context = {key: context[key] for key in ("treeType", "tree", "queue", "cpiContext")}
    return {"proof": [b58encode(node) for node in _path(ledger, account)], "root": b58encode(tree.root),
            "leafIndex": account.leaf_index, "hash": b58encode(account.hash), "rootSeq": tree.seq,
            "proveByIndex": ledger.in_output_queue(account), "treeContext": tree_context}


def _hashes(params: Sequence[str]) -> Sequence[str]:
    if len(params) > PAGE_LIMIT:
        raise RpcError(SERVER_ERROR, f"Validation Error: Too many hashes requested {len(params)}. "
                                     f"Maximum allowed: {PAGE_LIMIT}")
    return params


@rpc_method("getCompressedAccountProof")
def get_compressed_account_proof(ledger: Ledger, params: Mapping[str, Any], options: ServerOptions,
                                 method: Method) -> Any:
    """The Merkle proof of a live account's leaf; one still in an output queue has none (not found)."""
    return _proof_v1(ledger, _known(ledger, params["hash"]))


@rpc_method("getCompressedAccountProofV2")
def get_compressed_account_proof_v2(ledger: Ledger, params: Mapping[str, Any], options: ServerOptions,
                                    method: Method) -> Any:
    """The proof of a live account's leaf position; `proveByIndex` says the leaf is still in its queue."""
    return _proof_v2(ledger, _known(ledger, params["hash"]))


@rpc_method("getMultipleCompressedAccountProofs")
def get_multiple_compressed_account_proofs(ledger: Ledger, params: Sequence[str], options: ServerOptions,
                                           method: Method) -> Any:
    """One proof per hash, in request order; any account without a leaf in its tree fails the request."""
    return [_proof_v1(ledger, _known(ledger, text)) for text in _hashes(params)]


@rpc_method("getMultipleCompressedAccountProofsV2")
def get_multiple_compressed_account_proofs_v2(ledger: Ledger, params: Sequence[str], options: ServerOptions,
                                              method: Method) -> Any:
    """One V2 proof per hash, in request order. An account proven by index carries no path and the default
    root and rootSeq 0, as Photon writes it in this method (`get_multiple_compressed_account_proofs/v2.rs`)."""
    values = []
    for text in _hashes(params):
        value = _proof_v2(ledger, _known(ledger, text))
        if value["proveByIndex"]:
            value.update(proof=[], root=DEFAULT_KEY, rootSeq=0)
        values.append(value)
    return values


@rpc_method("getMultipleNewAddressProofsV2")
def get_multiple_new_address_proofs_v2(ledger: Ledger, params: Sequence[Mapping[str, str]], options: ServerOptions,
                                       method: Method) -> Any:
    """getMultipleNewAddressProofs for `{address, tree}` pairs: each in its own tree, the v1 address tree or a
    batched one (height 40; an address still in its queue is taken). An address at or above the highest element
    is answered as Photon answers it (`range_proof`)."""
    if not params:
        raise RpcError(SERVER_ERROR, "Validation Error: No addresses provided")
    if len(params) > MAX_NEW_ADDRESSES:
        raise RpcError(SERVER_ERROR, f"Validation Error: Too many addresses requested {len(params)}. "
                                     f"Maximum allowed: {MAX_NEW_ADDRESSES}")
    return [_new_address_proof(ledger, pair["address"], b58decode(pair["tree"], length=32)) for pair in params]


def _new_address_proof(ledger: Ledger, text: str, tree_key: bytes) -> dict[str, Any]:
    address = b58decode(text, length=32)
    if tree_key == ledger.address_tree_key:
        tree = ledger.address_tree
    elif tree_key in ledger.batched_address_trees:
        tree = ledger.batched_address_trees[tree_key].tree
        if ledger.batched_address_trees[tree_key].holds(address):
            raise RpcError(SERVER_ERROR, f"Validation Error: Address {text} already exists")
    else:
        raise RpcError(SERVER_ERROR, f"Invalid Public Key: field '{key_text(tree_key)}'")
    try:
        if ledger.address_taken(address):
            raise AddressExistsError(text)
        proof = range_proof(tree, int.from_bytes(address, "big"), beyond=True)
    except AddressExistsError:
        raise RpcError(SERVER_ERROR, f"Validation Error: Address {text} already exists") from None
    except ValueError:
        raise RpcError(SERVER_ERROR, f"Validation Error: address {text} is not a valid address") from None
    return {"root": b58encode(proof.root), "address": text,
            "lowerRangeAddress": b58encode(proof.low_value.to_bytes(32, "big")),
            "higherRangeAddress": b58encode(proof.low_next_value.to_bytes(32, "big")),
            "nextIndex": proof.low_next_index, "proof": [b58encode(node) for node in proof.path],
            "merkleTree": key_text(tree_key), "rootSeq": proof.root_seq, "lowElementLeafIndex": proof.low_leaf_index}


@rpc_method("getValidityProofV2")
def get_validity_proof_v2(ledger: Ledger, params: Mapping[str, Any], options: ServerOptions, method: Method) -> Any:
    """`{compressedProof, accounts, addresses}`: getValidityProof's proof (same counts, same prover), each
    account with `rootIndex: {rootIndex, proveByIndex}` and the merkle context it is in, each address with its
    tree's. An account in an output queue is proven by index (root the default key, root index 0); the proof
    is null when nothing needs one. Nothing asked is an empty answer, as Photon gives it."""
    hashes = list(params.get("hashes") or [])
    with_trees = list(params.get("newAddressesWithTrees") or [])
    if not hashes and not with_trees:
        return {"compressedProof": None, "accounts": [], "addresses": []}
    spec_form = dataclasses.replace(options, proof_form="spec-2.10")
    proof = get_validity_proof(ledger, {"hashes": hashes, "newAddressesWithTrees": with_trees}, spec_form,
                               Contract.default().method("getValidityProof"))
    accounts = [_account_input(ledger, proof, i, text) for i, text in enumerate(hashes)]
    addresses = [_address_input(ledger, proof, len(hashes) + i, pair) for i, pair in enumerate(with_trees)]
    return {"compressedProof": proof["compressedProof"], "accounts": accounts, "addresses": addresses}


def _root(proof: Mapping[str, Any], at: int) -> str:
    return b58encode(proof["roots"][at].to_bytes(32, "big"))


def _account_input(ledger: Ledger, proof: Mapping[str, Any], at: int, text: str) -> dict[str, Any]:
    account = ledger.accounts[b58decode(text, length=32)]
    by_index = proof["proveByIndices"][at]
    return {"hash": text, "root": DEFAULT_KEY if by_index else _root(proof, at),
            "rootIndex": {"rootIndex": 0 if by_index else proof["rootIndices"][at], "proveByIndex": by_index},
            "leafIndex": proof["leafIndices"][at], "merkleContext": account_v2_json(ledger, account)["merkleContext"]}


def _address_input(ledger: Ledger, proof: Mapping[str, Any], at: int, pair: Mapping[str, str]) -> dict[str, Any]:
    context = address_tree_context(ledger, b58decode(pair["tree"], length=32))
    return {"address": pair["address"], "root": _root(proof, at), "rootIndex": proof["rootIndices"][at],
            "merkleContext": merkle_context_json(context)}
