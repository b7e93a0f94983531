"""Broken values, token bytes, new-address proofs and validity proofs, each caught by one crypto check.

Each variant alters one thing of the reference's answers: a value past its range, token bytes
that say something else than tokenData, a new-address proof from a fresh or stale tree or with a
short path, a validity proof with garbage roots, root indices outside the history, a fabricated
address part, an empty compressedProof, or wrong trees in §2.10's answer form.
"""

from __future__ import annotations

import base64
import hashlib
from typing import Any

from csi_conformance.groundwork.base58 import b58decode, b58encode
from csi_conformance.groundwork.jsonio import dumps
from csi_conformance.ledger_crypto import AddressTree, decode_token_data, element_leaf, encode_token_data, fold_path
from csi_conformance.ledger_crypto.hashing import TokenDataFields
from csi_conformance.reference_server.errors import RpcError

from .broken import Dispatch, Variant, _each_account, _each_node, _ledger, _on, _set

FF = b58encode(b"\xff" * 32)
OTHER_TREE = "smt3AFtReRGVcrP11D6bSLEaKdUmrGfaTNowMVccJeu"


def _on_accounts(change) -> Any:
    def wrapped(real: Dispatch, method: str, params: Any) -> Any:
        return _each_account(real(method, params), change)

    return wrapped


def _data_hash_ff(account: dict) -> None:
    if isinstance(account.get("data"), dict):
        account["data"]["dataHash"] = FF


def _token_items(result: Any, change) -> Any:
    """change(account, tokenData) for every token account item of an answer."""
    return _each_node(result, lambda node: isinstance(node.get("account"), dict) and isinstance(
        node.get("tokenData"), dict), lambda node: change(node["account"], node["tokenData"]))


def _amount_plus_one(account: dict, token: dict) -> None:
    token["amount"] += 1


def _tlv_in_bytes(account: dict, token: dict) -> None:
    """The data bytes gain a tlv tokenData does not show (tlv is not hashed: only the bytes tell)."""
    fields = decode_token_data(base64.b64decode(account["data"]["data"]))
    changed = TokenDataFields(fields.mint, fields.owner, fields.amount, fields.delegate, fields.state, b"\x01\x02")
    account["data"]["data"] = base64.b64encode(encode_token_data(changed)).decode()


def _on_token_items(change) -> Any:
    def wrapped(real: Dispatch, method: str, params: Any) -> Any:
        return _token_items(real(method, params), change)

    return wrapped


# -- new-address proofs --------------------------------------------------------------------------------
def _items_from(tree: AddressTree, addresses: list[str]) -> list[dict]:
    """getMultipleNewAddressProofs items proven in `tree`, as the reference writes them."""
    items = []
    for text in addresses:
        proof = tree.non_inclusion_proof(int.from_bytes(b58decode(text, length=32), "big"))
        items.append({"address": text, "lowerRangeAddress": b58encode(proof.low_value.to_bytes(32, "big")),
                      "higherRangeAddress": b58encode(proof.low_next_value.to_bytes(32, "big")),
                      "lowElementLeafIndex": proof.low_leaf_index, "merkleTree": b58encode(_ledger().address_tree_key),
                      "nextIndex": proof.low_next_index, "proof": [b58encode(node) for node in proof.path],
                      "root": b58encode(proof.root), "rootSeq": proof.root_seq})
    return items


def _proofs_from(tree_of) -> Any:
    """Answer getMultipleNewAddressProofs from another tree; addresses it already holds still fail."""
    def wrapped(real: Dispatch, method: str, params: Any) -> Any:
        result = real(method, params)
        if method == "getMultipleNewAddressProofs":
            result = {**result, "value": _items_from(tree_of(), params)}
        return result

    return wrapped


def _fresh_tree() -> AddressTree:
    return AddressTree()


def _stale_tree() -> AddressTree:
    """The address tree as it was after its first address: later addresses are missing."""
    tree = AddressTree()
    tree.insert_many([_ledger().address_tree.element(2).value])
    return tree


def _taken_proved(real: Dispatch, method: str, params: Any) -> Any:
    """A taken address gets a proof from a fresh tree instead of an error."""
    try:
        return real(method, params)
    except RpcError:
        if method != "getMultipleNewAddressProofs":
            raise
        return {"context": {"slot": _ledger().indexed_slot}, "value": _items_from(AddressTree(), params)}


def _one_node_path(params: Any, result: Any) -> Any:
    """The path cut to one node, with the root that one node folds to (so only the height tells)."""
    for item in result["value"]:
        low = int.from_bytes(b58decode(item["lowerRangeAddress"], length=32), "big")
        high = int.from_bytes(b58decode(item["higherRangeAddress"], length=32), "big")
        item["nextIndex"] %= 2  # indices a 1-level tree can hold: only the path's length is wrong
        item["lowElementLeafIndex"] %= 2
        leaf = element_leaf(low, item["nextIndex"], high)
        item["proof"] = item["proof"][:1]
        item["root"] = b58encode(fold_path(leaf, item["lowElementLeafIndex"], [b58decode(item["proof"][0], length=32)]))
    return result


# -- validity proofs -----------------------------------------------------------------------------------
def _garbage(seed: Any, i: int) -> str:
    digest = hashlib.sha256(f"{dumps(seed)}/{i}".encode()).digest()
    return b58encode(b"\x00" + digest[1:])


def _garbage_roots(params: Any, result: Any) -> Any:
    value = result["value"]
    value["roots"] = [_garbage(params, i) for i in range(len(value["roots"]))]
    return result


def _root_indices_999999(params: Any, result: Any) -> Any:
    result["value"]["rootIndices"] = [999999] * len(result["value"]["rootIndices"])
    return result


def _address_part_fabricated(params: Any, result: Any) -> Any:
    """The address part made up: the fresh tree's root and element 0 as the low element."""
    count = len(params.get("newAddressesWithTrees") or []) if isinstance(params, dict) else 0
    value = result["value"]
    for i in range(len(value["roots"]) - count, len(value["roots"])):
        value["roots"][i] = b58encode(AddressTree().root)
        value["leafIndices"][i] = value["leafIndices"][i] + 1
    return result


def _empty_proof(params: Any, result: Any) -> Any:
    result["value"]["compressedProof"] = {}
    return result


def _spec_form_other_trees(params: Any, result: Any) -> Any:
    """§2.10's answer form (integer roots and leaves, treeInfos, proveByIndices), naming wrong trees."""
    value = result["value"]
    as_int = [int.from_bytes(b58decode(text, length=32), "big") for text in value["roots"]]
    result["value"] = {"compressedProof": value["compressedProof"], "roots": as_int,
                       "rootIndices": value["rootIndices"], "leafIndices": value["leafIndices"],
                       "leaves": [int.from_bytes(b58decode(text, length=32), "big") for text in value["leaves"]],
                       "treeInfos": [{"tree": OTHER_TREE} for _ in value["merkleTrees"]],
                       "proveByIndices": [False] * len(as_int)}
    return result


VARIANTS = [
    Variant("data-hash-ff", "crypto", "crypto.value-ranges", dispatch=_on_accounts(_data_hash_ff),
            clauses=("ledger-H3",)),
    Variant("lamports-past-u64", "crypto", "crypto.value-ranges",
            dispatch=_on_accounts(lambda a: _set(a, "lamports", 2**64)), clauses=("ledger-H3",)),
    Variant("token-amount-not-hashed", "crypto", "crypto.token-data-hash", dispatch=_on_token_items(_amount_plus_one),
            clauses=("ledger-H2",)),
    Variant("token-bytes-disagree", "crypto", "crypto.token-data-bytes", dispatch=_on_token_items(_tlv_in_bytes),
            clauses=("ledger-H2",)),
    Variant("address-path-one-node", "crypto", "crypto.new-address-proof",
            dispatch=_on("getMultipleNewAddressProofs", _one_node_path),
            clauses=("ledger-T2",)),
    # a taken address missing from the target's tree may wait in the queue: the reference tells (scenario)
    Variant("address-proof-fresh-tree", "crypto", "crypto.new-address-proof", dispatch=_proofs_from(_fresh_tree),
            clauses=("ledger-T2", "4.2-M16"), scenario=True),
    Variant("address-proof-stale-tree", "crypto", "crypto.new-address-proof", dispatch=_proofs_from(_stale_tree),
            clauses=("ledger-T2", "4.2-M16"), scenario=True),
    Variant("taken-address-proved", "crypto", "crypto.address-taken", dispatch=_taken_proved, clauses=("4.2-M16",)),
    Variant("validity-garbage-roots", "crypto", "crypto.validity-proof",
            dispatch=_on("getValidityProof", _garbage_roots),
            clauses=("ledger-P3", "ledger-T1", "ledger-T2")),
    Variant("validity-root-indices-999999", "crypto", "crypto.validity-proof",
            dispatch=_on("getValidityProof", _root_indices_999999),
            clauses=("ledger-T1", "ledger-T2")),
    Variant("validity-address-part-fabricated", "crypto", "crypto.validity-proof",
            dispatch=_on("getValidityProof", _address_part_fabricated),
            clauses=("ledger-P3", "ledger-T2")),
    Variant("validity-spec-form-other-trees", "crypto", "crypto.validity-proof",
            dispatch=_on("getValidityProof", _spec_form_other_trees),
            clauses=("ledger-P3", "ledger-T1")),
    Variant("compressed-proof-empty", "crypto", "crypto.proof-points", dispatch=_on("getValidityProof", _empty_proof),
            clauses=("ledger-P1",)),
]
