"""New-address proofs: which address tree the target serves, which addresses it holds, and what
a non-inclusion proof must satisfy (ledger-T2).

The spec gives getMultipleNewAddressProofs no tree parameter, and each proof names its tree in
`merkleTree`: that is how the kit learns the target's address tree instead of assuming the
default one observed practice uses.
"""

from __future__ import annotations

from typing import Any

from csi_conformance.groundwork.base58 import b58decode, b58encode
from csi_conformance.harness.context import Answer, CheckContext, MemoKey
from csi_conformance.harness.core.paths import result_value
from csi_conformance.harness.core.values import clip
from csi_conformance.harness.verify.validity import Problem
from csi_conformance.ledger_crypto import HEIGHT, HIGHEST_ADDRESS_PLUS_ONE, NonInclusionProof, verify_non_inclusion

__all__ = ["address_taken_probes", "address_tree", "confirmed_taken", "held_in_tree", "proof_problems",
           "stated_proof", "successor", "taken_inside"]

FRESH_TREE_ROOT = "3FrGzyXtjqjnukHDS2M5oyVj8tMVcHSahcHpWBGR5MHY"
"""Root of an address tree holding only its two sentinel elements (ledger-facts.md)."""
TAKEN_PROBES = 3
"""Discovered addresses asked about, to learn which ones the target itself says are taken."""
ADDRESS_TREE: MemoKey[str | None] = MemoKey("address_tree")
TAKEN: MemoKey[list[tuple[str, Answer]]] = MemoKey("taken")


def address_tree(ctx: CheckContext) -> str | None:
    """The address tree the target names in its new-address proofs (asked once, cached); None when
    it gives no proof naming one."""
    def named(ctx: CheckContext) -> str | None:
        answer = ctx.call("getMultipleNewAddressProofs", [ctx.fresh_pubkey()])
        items = answer.value if isinstance(answer.value, list) else []
        tree = items[0].get("merkleTree") if items and isinstance(items[0], dict) else None
        return tree if isinstance(tree, str) else None

    return ctx.once(ADDRESS_TREE, named)


def address_taken_probes(ctx: CheckContext) -> list[tuple[str, Answer]]:
    """Discovered addresses (live or closed: an address never leaves its tree), each with the
    target's answer when asked for a new-address proof of it (asked once, cached)."""
    addresses = (ctx.keys["addresses"] + ctx.keys["closed_addresses"])[:TAKEN_PROBES]
    return ctx.once(TAKEN, lambda ctx: [(address, ctx.call("getMultipleNewAddressProofs", [address]))
                                          for address in addresses])


def confirmed_taken(ctx: CheckContext) -> list[tuple[str, Answer]]:
    """The probed addresses the target refuses to prove new: it says itself they are in its tree."""
    return [(address, answer) for address, answer in address_taken_probes(ctx) if answer.error is not None]


def _number(item: dict, key: str) -> int:
    return int.from_bytes(b58decode(item[key], length=32), "big")


def stated_proof(item: Any) -> NonInclusionProof | None:
    """The non-inclusion proof a NewAddressProof item states; None when it is malformed (schema.result's finding)."""
    try:
        return NonInclusionProof(
            value=_number(item, "address"), low_value=_number(item, "lowerRangeAddress"),
            low_next_index=item["nextIndex"], low_next_value=_number(item, "higherRangeAddress"),
            low_leaf_index=item["lowElementLeafIndex"],
            path=tuple(b58decode(node, length=32) for node in item["proof"]),
            root=b58decode(item["root"], length=32), root_seq=item["rootSeq"])
    except (KeyError, TypeError, ValueError):
        return None


def proof_problems(asked: list[str], items: Any, tree: str | None) -> tuple[int, list[Problem]]:
    """How many items were judged, and what is wrong with them: one proof per address asked, in
    order, each of `HEIGHT` nodes folding to its root and bracketing its address; one root and
    root sequence per tree in one answer; the tree the target names elsewhere."""
    if not isinstance(items, list) or len(items) != len(asked):
        return 0, [Problem("No proof per address", f"{len(asked)} NewAddressProof items", clip(items), ("4.2-M16",),
                           result_value())]
    problems, judged, roots = [], 0, {}
    for i, (address, item) in enumerate(zip(asked, items, strict=True)):
        proof = stated_proof(item)
        if proof is None:
            continue  # a malformed item is schema.result's finding
        judged += 1
        where = f"result.value[{i}]"
        if item.get("address") != address:
            problems.append(Problem("Proof for another address", address, item.get("address"), ("4.2-M16",),
                                    result_value(i, "address"), exact=True))
        if len(proof.path) != HEIGHT:
            problems.append(Problem("Proof path not 26 nodes", f"{HEIGHT} nodes (the tree's height)",
                                    f"{len(proof.path)} nodes", ("ledger-T2",), result_value(i, "proof")))
        elif not verify_non_inclusion(proof, height=HEIGHT):
            problems.append(Problem("Non-inclusion proof does not verify",
                                    "the low element's leaf folds to root and lowerRange < address < higherRange",
                                    f"{where} does not, for {address}", ("ledger-T2",), result_value(i, "proof")))
        if tree is not None and item.get("merkleTree") != tree:
            problems.append(Problem("Proof from another address tree", tree, item.get("merkleTree"), ("ledger-T2",),
                                    result_value(i, "merkleTree"), exact=True))
        state = (item.get("root"), item.get("rootSeq"))
        first = roots.setdefault(item.get("merkleTree"), state)
        if first != state:
            problems.append(Problem("Two roots in one answer", {"root": first[0], "rootSeq": first[1]},
                                    {"root": state[0], "rootSeq": state[1]}, ("ledger-T2",), result_value(i, "root"),
                                    exact=True))
    return judged, problems


def successor(address: str) -> str:
    """address + 1: a tree that holds `address` proves its successor free with `address` as the low element."""
    return b58encode((int.from_bytes(b58decode(address, length=32), "big") + 1).to_bytes(32, "big"))


def held_in_tree(items: Any, taken: list[str]) -> set[str]:
    """The taken addresses a tree holds, read from its proofs of their successors (asked in the order of
    `taken`): each is the low element of its successor's proof. An address held by an account but not in the
    tree waits in the address queue for a forester, or the tree is stale; only a ledger known to be true
    tells which."""
    held = set()
    for address, item in zip(taken, items if isinstance(items, list) else [], strict=False):
        if isinstance(item, dict) and item.get("lowerRangeAddress") == address:
            held.add(address)
    return held


def taken_inside(items: Any, taken: list[str]) -> list[Problem]:
    """Proven ranges that hold an address known to be in the address tree (the target's own tree shows it,
    or the reference's does): a proof from a stale state of the tree (or a fresh tree on a populated
    ledger)."""
    problems = []
    for i, item in enumerate(items if isinstance(items, list) else []):
        if taken and isinstance(item, dict) and item.get("root") == FRESH_TREE_ROOT:
            problems.append(Problem("Fresh-tree root on a populated ledger",
                                    f"the root of a tree holding {taken[0]}", FRESH_TREE_ROOT, ("ledger-T2",),
                                    result_value(i, "root")))
        try:
            low, high = _number(item, "lowerRangeAddress"), _number(item, "higherRangeAddress")
        except (KeyError, TypeError, ValueError):
            continue
        for address in taken:
            if low < int.from_bytes(b58decode(address, length=32), "big") < high:
                fresh = " (the range of a fresh tree)" if (low, high) == (0, HIGHEST_ADDRESS_PLUS_ONE) else ""
                problems.append(Problem("Proven range holds a taken address",
                                        f"no address of the tree inside result.value[{i}]'s range{fresh}",
                                        {"taken": address, "lowerRangeAddress": item["lowerRangeAddress"],
                                         "higherRangeAddress": item["higherRangeAddress"]}, ("ledger-T2", "4.2-M16"),
                                        result_value(i, "lowerRangeAddress")))
    return problems
