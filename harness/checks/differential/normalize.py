"""The differences a differential comparison allows, all listed here and named in every diff.

An answer is first reduced to what is compared (`comparable`): its `result`, its `error`, or
the text of a plain `{error}` body. Then two lists of normalizers rewrite both sides alike:

- `READINGS` bring an answer that follows another reading of an ambiguity to the reading of
  observed practice (a state `0` becomes `initialized`, `maybeTokenData` becomes
  `optionalTokenData`, §2.10's integer roots become base58 hashes and its treeInfos
  merkleTrees, ...). Which reading a target follows is reported by the readings observer,
  never by the differential, so it must not show up here as a difference; the values
  themselves are still compared exactly. Where no normalizer can read a target's reading,
  The contract says which members each point governs (`Ambiguity.governs`): only differences there rest on it.
- `ALLOWED` drop what the spec leaves free or what cannot be equal between two servers: error
  messages, context slots, cursor strings, the order of lists, ...

Integers are never normalized: they are compared exactly, and `1.0` is not `1`.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from csi_conformance.groundwork.base58 import b58encode
from csi_conformance.harness.checks.differential.marked import proof_members, uncompared_members
from csi_conformance.harness.judging.compare import canonical
from csi_conformance.schema import Contract

__all__ = ["ALLOWED", "IGNORED", "NORMALIZERS", "READINGS", "Normalizer", "blank_tree_history",
           "comparable", "normalize"]

IGNORED = "<ignored>"
"""What an ignored value (a message, a slot, a cursor) is replaced with, on both sides."""

Rewrite = Callable[[Contract, str, dict], bool]
"""(contract, method, comparable) -> whether anything changed; rewrites the comparable in place."""


@dataclass(frozen=True)
class Normalizer:
    """One allowed difference: a name shown in diffs, what it allows and the clause that allows it."""

    name: str
    allows: str
    clause: str
    rewrite: Rewrite
    ambiguity: str | None = None
    """For a reading normalizer: the ambiguity whose observed reading it maps to."""


def comparable(body: Any) -> dict:
    """What of an answer body is compared: `{result}`, `{error}`, `{failure}` (a plain `{error: text}`
    body, §7), `{batch}` or `{other}`. Envelope members (`jsonrpc`, `id`) are the envelope family's."""
    if isinstance(body, list):
        return {"batch": [{"id": item.get("id") if isinstance(item, dict) else None, **comparable(item)}
                          for item in body]}
    if isinstance(body, dict):
        if isinstance(body.get("error"), dict):
            return {"error": body["error"]}
        if set(body) == {"error"} and isinstance(body["error"], str):
            return {"failure": body["error"]}
        if "result" in body:
            return {"result": body["result"]}
    return {"other": body}


def normalize(contract: Contract, method: str, body: Any, normalizers: tuple[Normalizer, ...] | None = None
              ) -> tuple[dict, tuple[str, ...]]:
    """The comparable of `body` after every normalizer (or the given ones), and the names of those
    that changed something. `body` itself is left untouched."""
    value = comparable(copy.deepcopy(body))
    applied = tuple(n.name for n in (NORMALIZERS if normalizers is None else normalizers)
                    if n.rewrite(contract, method, value))
    return value, applied


# -- walking helpers ---------------------------------------------------------------------------
def _dicts(node: Any) -> Iterator[dict]:
    """Every object in `node`, depth first."""
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from _dicts(value)
    elif isinstance(node, list):
        for item in node:
            yield from _dicts(item)


@functools.cache
def _definition(contract: Contract, definition: str) -> dict:
    return contract.defs()[definition]


def _required(contract: Contract, definition: str) -> frozenset[str]:
    return frozenset(_definition(contract, definition).get("required", ()))


def _is(contract: Contract, node: dict, definition: str) -> bool:
    """Whether `node` has every member the contract requires of `definition`."""
    return _required(contract, definition) <= set(node)


def _state_value(value: dict) -> Any:
    result = value.get("result")
    return result.get("value") if isinstance(result, dict) else None


# -- readings: to the reading of observed practice ---------------------------------------------
def _balance_wrapper(contract: Contract, method: str, value: dict) -> bool:
    """A bare `{context, value}` body is the answer's result (the balance methods' reference form)."""
    body = value.get("other")
    if contract.methods.get(method) is None or contract.method(method).response_schema is None:
        return False
    if not (isinstance(body, dict) and set(body) == {"context", "value"}):
        return False
    value.clear()
    value["result"] = body
    return True


def _transaction_context(contract: Contract, method: str, value: dict) -> bool:
    result = value.get("result")
    if method != "getTransactionWithCompressionInfo" or not isinstance(result, dict):
        return False
    if set(result) != {"context", "value"}:
        return False
    value["result"] = result["value"]
    return True


def _renamer(old: str, new: str) -> Rewrite:
    def rename(contract: Contract, method: str, value: dict) -> bool:
        changed = False
        for node in _dicts(value):
            if old in node and new not in node:
                node[new] = node.pop(old)
                changed = True
        return changed

    return rename


def _token_state(contract: Contract, method: str, value: dict) -> bool:
    """The numeric enumeration of §3.1's client guide (0 initialized, 1 frozen) as the wire names."""
    names = contract.ambiguity("token-state").readings["string"].schema["enum"]
    changed = False
    for node in _dicts(value):
        state = node.get("state")
        if type(state) is int and 0 <= state < len(names) and _is(contract, node, "TokenData"):
            node["state"] = names[state]
            changed = True
    return changed


def _optional_null(contract: Contract, method: str, value: dict) -> bool:
    optional = set(_definition(contract, "CompressedAccount")["properties"]) - _required(contract, "CompressedAccount")
    changed = False
    for node in _dicts(value):
        if _is(contract, node, "CompressedAccount"):
            for name in sorted(optional - set(node)):
                node[name] = None
                changed = True
    return changed


def _signature_error(contract: Contract, method: str, value: dict) -> bool:
    if method != "getLatestNonVotingSignatures":
        return False
    changed = False
    for node in _dicts(value):
        if _is(contract, node, "SignatureItem") and "error" not in node:
            node["error"] = None
            changed = True
    return changed


BN_MEMBERS = ("roots", "leaves")
"""The BN members of a validity proof (§2.10)."""


def _bn_values(contract: Contract, method: str, value: dict) -> bool:
    """A BN as a JSON integer is the big-endian number of the 32 bytes the base58 Hash spells."""
    proof = _state_value(value)
    if method != "getValidityProof" or not isinstance(proof, dict):
        return False
    changed = False
    for member in BN_MEMBERS:
        items = proof.get(member)
        for index, item in enumerate(items if isinstance(items, list) else []):
            if type(item) is int and 0 <= item < 2**256:
                items[index] = b58encode(item.to_bytes(32, "big"))
                changed = True
    return changed


def _proof_fields(contract: Contract, method: str, value: dict) -> bool:
    """§2.10's `treeInfos` as the wire's `merkleTrees` when every element names its `tree` (the inner
    structure of a TreeInfo is not shown, so only the tree is read from it); `proveByIndices` has no
    wire counterpart and is dropped. treeInfos without a `tree` stay as they are: their difference
    then rests on the ambiguity, while roots, leaves and indices are still compared."""
    proof = _state_value(value)
    if method != "getValidityProof" or not isinstance(proof, dict) or "merkleTrees" in proof:
        return False
    infos = proof.get("treeInfos")
    if not (isinstance(infos, list) and all(isinstance(info, dict) and isinstance(info.get("tree"), str)
                                            for info in infos)):
        return False
    proof["merkleTrees"] = [info["tree"] for info in proof.pop("treeInfos")]
    proof.pop("proveByIndices", None)
    return True


READINGS: tuple[Normalizer, ...] = (
    Normalizer("reading:balance-wrapper", "a bare {context, value} body for the balance methods", "4.1-R7",
               _balance_wrapper, "balance-wrapper"),
    Normalizer("reading:transaction-context", "getTransactionWithCompressionInfo inside {context, value}", "1-R1",
               _transaction_context, "transaction-context"),
    Normalizer("reading:compression-info-key", "compression_info for compressionInfo", "4.2-M10",
               _renamer("compression_info", "compressionInfo"), "compression-info-key"),
    Normalizer("reading:token-data-key", "maybeTokenData for optionalTokenData", "2.11-R2",
               _renamer("maybeTokenData", "optionalTokenData"), "token-data-key"),
    Normalizer("reading:token-state", "TokenData.state as the numeric enumeration", "3.1-R1",
               _token_state, "token-state"),
    Normalizer("reading:optional-null", "a CompressedAccount's address or data omitted instead of null", "2.3-R1",
               _optional_null, "optional-null"),
    Normalizer("reading:signature-error", "no `error` member on a successful transaction's signature", "2.8-R2",
               _signature_error, "signature-error"),
    Normalizer("reading:bn-values", "validity proof roots and leaves as JSON integers", "2.1-R6",
               _bn_values, "bn-values"),
    Normalizer("reading:validity-proof-fields", "§2.10's treeInfos (their trees) for merkleTrees, without "
               "proveByIndices", "2.10-R1", _proof_fields, "validity-proof-fields"),
)

# -- allowed differences -----------------------------------------------------------------------
def _error_message(contract: Contract, method: str, value: dict) -> bool:
    changed = False
    for node in [value, *(item for item in value.get("batch", ()) if isinstance(item, dict))]:
        error = node.get("error")
        if isinstance(error, dict) and "message" in error:
            error["message"] = IGNORED
            changed = True
        if "failure" in node:
            node["failure"] = IGNORED
            changed = True
    return changed


def _context_slot(contract: Contract, method: str, value: dict) -> bool:
    result = value.get("result")
    context = result.get("context") if isinstance(result, dict) else None
    if isinstance(context, dict) and "slot" in context:
        context["slot"] = IGNORED
        return True
    return False


def _indexer_slot(contract: Contract, method: str, value: dict) -> bool:
    if method == "getIndexerSlot" and "result" in value:
        value["result"] = IGNORED
        return True
    return False


def _cursor(contract: Contract, method: str, value: dict) -> bool:
    page = _state_value(value)
    known = contract.methods.get(method)
    if known is None or known.pagination is None or not isinstance(page, dict):
        return False
    if known.pagination.cursor not in page:
        return False
    page[known.pagination.cursor] = IGNORED
    return True


def _order_free_lists(contract: Contract, method: str, value: dict) -> Iterator[list]:
    """Lists whose order the spec leaves free: a paginated method's items, every array of a
    CompressionInfo (§2.11), and the answers of a batch (JSON-RPC 2.0 lets them come in any order)."""
    known = contract.methods.get(method)
    page = _state_value(value)
    if known is not None and known.pagination is not None and isinstance(page, dict):
        items = page.get(known.pagination.items)
        if isinstance(items, list):
            yield items
    info = _definition(contract, "CompressionInfo")["properties"]
    arrays = [name for name, schema in info.items() if schema.get("type") == "array"]
    for node in _dicts(value.get("result")):
        if _is(contract, node, "CompressionInfo"):
            yield from (node[name] for name in arrays if isinstance(node.get(name), list))
    if isinstance(value.get("batch"), list):
        yield value["batch"]


def _order(contract: Contract, method: str, value: dict) -> bool:
    changed = False
    for items in _order_free_lists(contract, method, value):
        ordered = sorted(items, key=canonical)
        if any(a is not b for a, b in zip(ordered, items, strict=True)):
            items[:] = ordered
            changed = True
    return changed


def _transaction_object(contract: Contract, method: str, value: dict) -> bool:
    result = value.get("result")
    if method == "getTransactionWithCompressionInfo" and isinstance(result, dict) and "transaction" in result:
        result["transaction"] = IGNORED
        return True
    return False


def _members_ignored(names: Callable[[Contract], frozenset[str]]) -> Rewrite:
    """Ignore, wherever they are in an answer of any method, the members `names` reads from the contract."""
    def rewrite(contract: Contract, method: str, value: dict) -> bool:
        ignored = names(contract)
        changed = False
        for node in _dicts(value.get("result")):
            for name in ignored & set(node):
                node[name] = IGNORED
                changed = True
        return changed

    return rewrite


HISTORY_MEMBERS = {"getValidityProof": ("roots", "rootIndices"),
                   "getMultipleNewAddressProofs": ("root", "rootSeq", "proof", "lowerRangeAddress",
                                                   "higherRangeAddress", "lowElementLeafIndex", "nextIndex")}
"""Per proof method, the members a tree's whole history decides (of each element of that tree)."""


def blank_tree_history(method: str, value: dict, trees: frozenset[str]) -> set[str]:
    """Ignore, in a proof answer, what the history of `trees` decides (roots, root indices, a new-address
    proof's range and path): for trees a reference saw only part of. The trees blanked in it."""
    members, proof = HISTORY_MEMBERS.get(method), _state_value(value)
    blanked: set[str] = set()
    if not members or not trees:
        return blanked
    if method == "getMultipleNewAddressProofs" and isinstance(proof, list):
        for item in (item for item in proof if isinstance(item, dict) and item.get("merkleTree") in trees):
            item.update({name: IGNORED for name in members if name in item})
            blanked.add(item["merkleTree"])
    elif isinstance(proof, dict) and isinstance(proof.get("merkleTrees"), list):
        for i, tree in enumerate(proof["merkleTrees"]):
            for name in (name for name in members if tree in trees and isinstance(proof.get(name), list)):
                if i < len(proof[name]):
                    proof[name][i] = IGNORED
                    blanked.add(tree)
    return blanked


ALLOWED: tuple[Normalizer, ...] = (
    Normalizer("error-message", "error.message is free text; codes are compared", "7-R1", _error_message),
    Normalizer("context-slot", "context.slot is the slot each side answered at", "2.2-R1", _context_slot),
    Normalizer("indexer-slot", "getIndexerSlot: the precondition compares it (a later slot is allowed)",
               "4.2-M19", _indexer_slot),
    Normalizer("cursor", "cursors are opaque: the pages they lead to are compared instead", "2.1-R4", _cursor),
    Normalizer("order", "lists whose order the spec leaves free are compared as multisets", "4.1-R8", _order),
    Normalizer("transaction-object", "the fields of the transaction object are not shown", "2.11-R6",
               _transaction_object),
    Normalizer("proof-bytes", "a proof (every member the contract marks x-proof, in any method, however nested): "
               "a Groth16 proof is randomized at every proving and null is allowed (§2.10), so crypto.groth16-proof "
               "judges it; roots, leaves, indices and trees are compared", "2.10-R2", _members_ignored(proof_members)),
    Normalizer("not-compared", "members the contract marks x-not-compared: no reference can be expected to repeat "
               "them (the second contract's cpiContext, photon-R11)", "2.10-R2", _members_ignored(uncompared_members)),
)

NORMALIZERS: tuple[Normalizer, ...] = READINGS + ALLOWED
"""Every normalizer, in the order they run: readings first, then the allowed differences."""
