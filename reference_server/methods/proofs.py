"""Validity proofs and new-address proofs (§4.2 #16, #17, §4.3).

Merkle context comes from the ledger's trees (ledger-facts.md); `compressedProof` comes from
the prover (`reference_server.prover`): a prover service when one is configured, else
deterministic well-formed points.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from csi_conformance.groundwork.base58 import b58decode, b58encode
from csi_conformance.ledger_crypto import HIGHEST_ADDRESS_PLUS_ONE, AddressExistsError, AddressTree, NonInclusionProof
from csi_conformance.ledger_proofs.request_v2 import V2Account, V2Address
from csi_conformance.reference_server.errors import INVALID_PARAMS, SERVER_ERROR, RpcError
from csi_conformance.reference_server.ledger import Ledger
from csi_conformance.reference_server.methods.registry import rpc_method
from csi_conformance.reference_server.methods.tree_infos import tree_infos
from csi_conformance.reference_server.options import ServerOptions
from csi_conformance.reference_server.prover import AccountInput, AddressInput, ProverError, prover_for
from csi_conformance.reference_server.prover_v2 import prove_v2
from csi_conformance.reference_server.records import Account
from csi_conformance.schema import Method

__all__ = ["get_multiple_new_address_proofs", "get_validity_proof", "new_address_proofs", "range_proof"]


@dataclass(frozen=True)
class _Element:
    """One proven element: its leaf, leaf index, root, root index and tree."""

    leaf: bytes
    leaf_index: int
    root: bytes
    root_index: int
    tree: bytes
    kind: str  # "state" or "address"
    by_index: bool = False


@rpc_method("getMultipleNewAddressProofs")
def get_multiple_new_address_proofs(
    ledger: Ledger, params: Sequence[str], options: ServerOptions, method: Method
) -> Any:
    """One non-inclusion proof per address in the address tree; an address that exists fails.

    The cap (50) and the element fields' encodings are observed practice: the ranges are the
    low element's value and next value as 32-byte big-endian keys, the proof its 26 siblings.
    """
    return new_address_proofs(ledger, params, method)


def new_address_proofs(ledger: Ledger, params: Sequence[str], method: Method, *, beyond: bool = False) -> Any:
    """getMultipleNewAddressProofs' answer; with `beyond`, an address at or above the highest element is answered
    as Photon at 366a15b answers it (`range_proof`), where the spec's contract refuses it."""
    maximum = method.observed["max_addresses"]
    if len(params) > maximum:
        raise RpcError(INVALID_PARAMS, f"Invalid params: {len(params)} addresses given, at most {maximum} allowed")
    tree = b58encode(ledger.address_tree_key)
    items = []
    for text in params:
        proof = _non_inclusion(ledger, text, beyond=beyond)
        items.append({
            "address": text,
            "lowerRangeAddress": b58encode(proof.low_value.to_bytes(32, "big")),
            "higherRangeAddress": b58encode(proof.low_next_value.to_bytes(32, "big")),
            "lowElementLeafIndex": proof.low_leaf_index,
            "merkleTree": tree,
            "nextIndex": proof.low_next_index,
            "proof": [b58encode(node) for node in proof.path],
            "root": b58encode(proof.root),
            "rootSeq": proof.root_seq,
        })
    return items


def _non_inclusion(ledger: Ledger, text: str, *, beyond: bool = False, tree: bytes | None = None) -> NonInclusionProof:
    """The proof that `text` is free in `tree` (the address tree by default); an address an account holds is taken
    even before the tree has it (queued), as is one waiting in a batched address tree's queue."""
    try:
        address = b58decode(text, length=32)
        indexed = ledger.address_tree
        if tree is not None and tree != ledger.address_tree_key:
            queue = ledger.batched_address_trees[tree]
            if queue.holds(address):
                raise AddressExistsError(text)
            indexed = queue.tree
        if ledger.address_taken(address):
            raise AddressExistsError(text)
        return range_proof(indexed, int.from_bytes(address, "big"), beyond=beyond)
    except AddressExistsError:
        raise RpcError(SERVER_ERROR, f"Validation Error: address {text} already exists") from None
    except ValueError:
        raise RpcError(SERVER_ERROR, f"Validation Error: address {text} is not a valid address "
                                     "(it must be above 0 and below 2^248)") from None


def range_proof(tree: AddressTree, value: int, *, beyond: bool = False) -> NonInclusionProof:
    """The non-inclusion proof of `value` in `tree`. With `beyond`, a value at or above the highest element
    (2^248 - 1) gets the range Photon at 366a15b answers: the element with the largest value below it in Photon's
    table, which never holds the highest element (`query_next_smallest_elements_by_address`, `value <` the
    address), so the range ends at the highest. Such a range does not contain the value: no proof can rest on it.
    """
    if not beyond or value < HIGHEST_ADDRESS_PLUS_ONE:
        return tree.non_inclusion_proof(value)
    try:
        below = tree.non_inclusion_proof(HIGHEST_ADDRESS_PLUS_ONE - 1)
    except AddressExistsError:  # the value just below the highest is taken: its own element is the range
        index = next(i for i in range(tree.next_index) if tree.element(i).value == HIGHEST_ADDRESS_PLUS_ONE - 1)
        element = tree.element(index)
        below = NonInclusionProof(value, element.value, element.next_index, element.next_value, index,
                                  tuple(tree.proof(index)), tree.root, tree.seq, tree.history_size)
    return replace(below, value=value)


@rpc_method("getValidityProof")
def get_validity_proof(ledger: Ledger, params: Mapping[str, Any], options: ServerOptions, method: Method) -> Any:
    """A proof that `hashes` exist (live) and new addresses are free, with its merkle context.

    Batched trees: an account still in an output queue is proven by index (spec-2.10 form) or refused (wire
    form, as practice refuses it). An account already appended to a batched tree is proven against the tree's
    root by the batched inclusion circuit (height 32), which the kit's prover does not have: its merkle context
    is proven against the tree's root by the v2 circuits (height 32; a batched address tree's new address by
    height 40), from the light prover of the v2 circuits (`prover_v2`); where no reachable prover has the
    circuit, or v1 and v2 trees are mixed, `compressedProof` is null (the spec's "ValidityProof or null"),
    never a proof that cannot verify nor a placeholder that looks like one.

    Spec: the counts of §8 (4.3-R1, 4.3-R2) and failure for unknown or consumed accounts
    (4.3-R3). Observed practice, where the spec is silent: `hashes` is optional when addresses
    are given; an empty list reads as an absent one (ambiguity empty-address-list: the official
    client sends `newAddressesWithTrees: []`); combined proofs take at most 4 hashes with 1–2
    addresses; `newAddresses` (deprecated) uses the default address tree and may not come with a
    non-empty `newAddressesWithTrees`; accounts come first, then addresses; root indices are the
    tree's seq modulo the root history.
    """
    hashes, addresses = params.get("hashes") or None, _new_addresses(ledger, params)
    _check_counts(method, hashes, addresses)
    hashes, addresses = hashes or [], addresses or []
    accounts = [_live_account(ledger, text) for text in hashes]
    by_index = [ledger.in_output_queue(a) for a in accounts]
    if any(by_index) and options.proof_form != "spec-2.10":
        _refuse_queued(accounts, by_index)
    proofs = [(tree, _non_inclusion(ledger, text, tree=tree)) for text, tree in addresses]
    elements = [_account_element(ledger, a, queued) for a, queued in zip(accounts, by_index, strict=True)]
    elements += [_address_element(p, tree) for tree, p in proofs]
    proven = [a for a, queued in zip(accounts, by_index, strict=True) if not queued]
    try:
        compressed = _compressed(ledger, options, proven, proofs)
    except ProverError as exc:
        raise RpcError(SERVER_ERROR, f"Prover error: {exc}") from None
    if options.proof_form == "spec-2.10":
        return _spec_form(compressed, elements, tree_infos(ledger, accounts, len(proofs)))
    return _wire_form(compressed, elements)


def _refuse_queued(accounts: Sequence[Account], by_index: Sequence[bool]) -> None:
    """The wire form has no `proveByIndices`: an account still in an output queue has no leaf to prove, and is
    refused as observed practice refuses it ("Leaf nodes not found"; ambiguity queued-validity-proof)."""
    queued = [b58encode(a.hash) for a, flag in zip(accounts, by_index, strict=True) if flag]
    raise RpcError(SERVER_ERROR, f"Record Not Found: Leaf nodes not found for {', '.join(queued)}: still in the "
                                 "output queue of a batched tree, provable by index only")


def _compressed(ledger: Ledger, options: ServerOptions, proven: Sequence[Account],
                proofs: Sequence[tuple[bytes, NonInclusionProof]]) -> dict | None:
    """The proof of the elements proven by root: v1 trees by the v1 circuits, batched trees by the v2 ones
    (`prover_v2`); None when nothing needs a proof, or v1 and v2 trees are mixed (no circuit takes both)."""
    if not proven and not proofs:
        return None
    batched = [a.queue is not None for a in proven] + [tree != ledger.address_tree_key for tree, _ in proofs]
    if not any(batched):
        return prover_for(options.prover_url).prove([_account_input(ledger, a) for a in proven],
                                                    [_address_input(p) for _, p in proofs])
    if not all(batched):
        return None
    return prove_v2(options.v2_prover, [_v2_account(ledger, a) for a in proven], [_v2_address(p) for _, p in proofs])


def _new_addresses(ledger: Ledger, params: Mapping[str, Any]) -> list[tuple[str, bytes]] | None:
    """The addresses to prove free, each with its tree (None when neither list has entries); every tree named
    must be the ledger's address tree or one of its batched address trees."""
    with_trees, plain = params.get("newAddressesWithTrees") or None, params.get("newAddresses") or None
    if with_trees is not None and plain is not None:
        raise RpcError(SERVER_ERROR, "Validation Error: give newAddressesWithTrees or the deprecated "
                                     "newAddresses, not both")
    if plain is not None:
        return [(text, ledger.address_tree_key) for text in plain]
    if with_trees is None:
        return None
    pairs = []
    for element in with_trees:
        tree = b58decode(element["tree"], length=32)
        if tree != ledger.address_tree_key and tree not in ledger.batched_address_trees:
            raise RpcError(SERVER_ERROR, f"Validation Error: address tree {element['tree']} is not indexed")
        pairs.append((element["address"], tree))
    return pairs


def _check_counts(method: Method, given_hashes: list | None, given_addresses: list | None) -> None:
    """Counts the circuits exist for: §8 for each list with entries (an empty one reads as absent, as
    observed), observed practice for the combination."""
    hash_limit, address_limit = method.limit_for("hashes"), method.limit_for("newAddressesWithTrees")
    hashes, addresses = len(given_hashes or []), len(given_addresses or [])
    problem = None
    if given_hashes is None and given_addresses is None:
        problem = "no hashes and no new addresses to prove"
    elif given_hashes is not None and not hash_limit.allows(hashes):
        problem = f"{hashes} hashes given, allowed counts are {list(hash_limit.counts)}"
    elif given_addresses is not None and not address_limit.allows(addresses):
        problem = f"{addresses} new addresses given, allowed counts are {list(address_limit.counts)}"
    elif hashes and addresses:
        combined = method.observed["combined_max"]
        if hashes > combined["hashes"] or addresses > combined["newAddressesWithTrees"]:
            problem = (f"{hashes} hashes with {addresses} new addresses: a combined proof takes at most "
                       f"{combined['hashes']} hashes with {combined['newAddressesWithTrees']} addresses")
    if problem:
        raise RpcError(INVALID_PARAMS, f"Invalid params: {problem}")


def _live_account(ledger: Ledger, text: str) -> Account:
    account = ledger.account(b58decode(text, length=32))
    if account is None:
        raise RpcError(SERVER_ERROR, f"Record Not Found: account {text} does not exist")
    if account.closed:
        raise RpcError(SERVER_ERROR, f"Record Not Found: account {text} has been consumed")
    return account


def _account_element(ledger: Ledger, account: Account, by_index: bool = False) -> _Element:
    """An account's merkle context; one proven by index names no root (zero, root index 0), as practice does."""
    if by_index:
        return _Element(account.hash, account.leaf_index, bytes(32), 0, account.tree, "state", by_index=True)
    tree = ledger.state_trees[account.tree]
    return _Element(account.hash, account.leaf_index, tree.root, tree.root_index, account.tree, "state")


def _address_element(proof: NonInclusionProof, tree: bytes) -> _Element:
    leaf = proof.value.to_bytes(32, "big")
    return _Element(leaf, proof.low_leaf_index, proof.root, proof.root_index, tree, "address")


def _int(raw: bytes) -> int:
    return int.from_bytes(raw, "big")


def _account_input(ledger: Ledger, account: Account) -> AccountInput:
    tree = ledger.state_trees[account.tree]
    path = tuple(_int(node) for node in tree.proof(account.leaf_index))
    return AccountInput(root=_int(tree.root), path_index=account.leaf_index, path_elements=path,
                        leaf=_int(account.hash))


def _address_input(proof: NonInclusionProof) -> AddressInput:
    return AddressInput(root=_int(proof.root), value=proof.value, path_index=proof.low_leaf_index,
                        path_elements=tuple(_int(node) for node in proof.path), low_value=proof.low_value,
                        high_value=proof.low_next_value, next_index=proof.low_next_index)


def _v2_account(ledger: Ledger, account: Account) -> V2Account:
    tree = ledger.state_trees[account.tree]
    return V2Account(root=_int(tree.root), leaf=_int(account.hash), leaf_index=account.leaf_index,
                     path=tuple(_int(node) for node in tree.proof(account.leaf_index)))


def _v2_address(proof: NonInclusionProof) -> V2Address:
    return V2Address(root=_int(proof.root), address=proof.value, low_value=proof.low_value,
                     next_value=proof.low_next_value, low_index=proof.low_leaf_index,
                     path=tuple(_int(node) for node in proof.path))


def _wire_form(compressed: dict | None, elements: list[_Element]) -> dict[str, Any]:
    """Observed practice: roots and leaves as base58 hashes, trees in `merkleTrees`."""
    return {
        "compressedProof": compressed,
        "roots": [b58encode(e.root) for e in elements],
        "rootIndices": [e.root_index for e in elements],
        "leafIndices": [e.leaf_index for e in elements],
        "leaves": [b58encode(e.leaf) for e in elements],
        "merkleTrees": [b58encode(e.tree) for e in elements],
    }


def _spec_form(compressed: dict | None, elements: list[_Element], infos: list[dict]) -> dict[str, Any]:
    """§2.10's table: roots and leaves as BN integers, `treeInfos` and `proveByIndices`; `compressedProof` is
    null when every element is proven by index (nothing needs a zero-knowledge proof)."""
    return {
        "compressedProof": compressed,
        "roots": [_int(e.root) for e in elements],
        "rootIndices": [e.root_index for e in elements],
        "leafIndices": [e.leaf_index for e in elements],
        "leaves": [_int(e.leaf) for e in elements],
        "treeInfos": [{**info, "rootIndex": e.root_index} for info, e in zip(infos, elements, strict=True)],
        "proveByIndices": [e.by_index for e in elements],
    }
