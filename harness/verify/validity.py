"""A getValidityProof answer read as one list of proven elements, and judged against what was asked.

Two answer forms exist (ambiguity validity-proof-fields): the wire form (`merkleTrees`, base58
roots and leaves) and §2.10's (`treeInfos`, `proveByIndices`, integer roots and leaves, ambiguity
bn-values). Both are read into the same `Element`s, so a reading never hides a value: the
values are compared whichever form carries them.

Ledger rules (ledger-facts.md): accounts first, then new addresses; an account's leaf is its
hash at its leaf index in its tree; an address's leaf is the address, its index the low
element's and its root the address tree's (ledger-P3); root indices lie in the 2400-root history,
and one tree at one state has one root and one root index (ledger-T1).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from csi_conformance.groundwork.base58 import b58decode
from csi_conformance.harness.core.paths import BODY, result_value
from csi_conformance.harness.core.values import clip
from csi_conformance.harness.verify.values import bn_value
from csi_conformance.ledger_crypto import ROOT_HISTORY, ZERO_HASHES

__all__ = ["Element", "Expected", "Problem", "element_problems", "elements_of", "key_int", "root_agreement"]

EMPTY_STATE_ROOT = int.from_bytes(ZERO_HASHES[-1], "big")
LISTS = ("roots", "rootIndices", "leafIndices", "leaves")


@dataclass(frozen=True)
class Problem:
    """One broken rule: a fixed title, what was expected and what came (JSON values)."""

    title: str
    expected: Any
    received: Any
    clauses: tuple[str, ...] = ("ledger-P3",)
    path: str = BODY
    """The member that is wrong (a JSON path into the answer)."""
    exact: bool = False
    """Both values are exact (a mismatch of one member), not a rule stated in words."""


@dataclass(frozen=True)
class Element:
    """One proven element as the answer states it (None where a value could not be read)."""

    root: int | None
    root_index: Any
    leaf: int | None
    leaf_index: Any
    tree: str | None


@dataclass(frozen=True)
class Expected:
    """What one element must be: an account asked (`kind` "account") or a new address."""

    kind: str
    name: str
    leaf: int
    leaf_index: int | None
    """None when it cannot be known at the proof's slot (then not compared)."""
    tree: str | None
    root: int | None = None
    root_index: int | None = None


def key_int(text: str) -> int:
    return int.from_bytes(b58decode(text, length=32), "big")


def _trees(value: dict) -> tuple[str, list | None]:
    """The per-element trees of either form: `merkleTrees`, or the `tree` of each `treeInfos` element
    (inner structure not shown by the spec: a tree it does not name is not compared)."""
    if isinstance(value.get("merkleTrees"), list):
        return "merkleTrees", value["merkleTrees"]
    infos = value.get("treeInfos")
    if isinstance(infos, list):
        return "treeInfos", [(i.get("tree") or i.get("merkleTree")) if isinstance(i, dict) else None for i in infos]
    return "merkleTrees", None


def elements_of(value: Any, asked: int) -> tuple[list[Element], list[Problem]]:
    """The elements of a proof of `asked` elements, or the problems that keep them from being read."""
    if not isinstance(value, dict):
        return [], [Problem("No validity proof", "a ValidityProofWithContext object", clip(value),
                            path=result_value())]
    tree_key, trees = _trees(value)
    lists = {name: value.get(name) for name in LISTS}
    lists[tree_key] = trees
    if "proveByIndices" in value:
        lists["proveByIndices"] = value["proveByIndices"]
    wrong = {name: (len(items) if isinstance(items, list) else items) for name, items in lists.items()
             if not isinstance(items, list) or len(items) != asked}
    if wrong:
        return [], [Problem("Proof lengths disagree", dict.fromkeys(wrong, asked), {name: clip(n) for name, n in
                                                                                  wrong.items()},
                            path=result_value(next(iter(wrong))), exact=True)]
    return [Element(bn_value(lists["roots"][i]), lists["rootIndices"][i], bn_value(lists["leaves"][i]),
                    lists["leafIndices"][i], trees[i] if isinstance(trees[i], str) else None)
            for i in range(asked)], []


def element_problems(elements: list[Element], expected: list[Expected]) -> list[Problem]:
    """Each element against what was asked, in order (accounts first, then addresses)."""
    problems = []
    for i, (got, want) in enumerate(zip(elements, expected, strict=True)):
        where = f"element {i} ({want.kind} {want.name})"
        if got.leaf != want.leaf:
            problems.append(Problem("Proof leaf is not the one asked", _hex(want.leaf), _hex(got.leaf),
                                    path=result_value("leaves", i), exact=True))
        if want.leaf_index is not None and got.leaf_index != want.leaf_index:
            problems.append(Problem("Proof leaf index wrong", want.leaf_index, got.leaf_index,
                                    path=result_value("leafIndices", i), exact=True))
        if want.tree is not None and got.tree is not None and got.tree != want.tree:
            problems.append(Problem("Proof tree wrong", want.tree, got.tree, path=result_value("merkleTrees", i),
                                    exact=True))
        if not (type(got.root_index) is int and 0 <= got.root_index < ROOT_HISTORY):
            problems.append(Problem("Root index outside the root history", f"an integer in [0, {ROOT_HISTORY}) "
                                    f"for {where}", got.root_index, ("ledger-T1",), result_value("rootIndices", i)))
        if want.kind == "account" and got.root == EMPTY_STATE_ROOT:
            problems.append(Problem("Empty-tree root for a live account", f"the root of a tree holding {where}",
                                    _hex(got.root), ("ledger-T1",), result_value("roots", i)))
        problems += _address_root(where, i, got, want)
    return problems


def _address_root(where: str, i: int, got: Element, want: Expected) -> list[Problem]:
    """A new address's root and root index are the address tree's, as its non-inclusion proof says."""
    problems = []
    if want.root is not None and got.root != want.root:
        problems.append(Problem("Address root is not the address tree's", _hex(want.root), _hex(got.root),
                                ("ledger-P3", "ledger-T2"), result_value("roots", i), exact=True))
    if want.root_index is not None and got.root_index != want.root_index:
        problems.append(Problem("Address root index wrong", want.root_index, got.root_index, ("ledger-T1", "ledger-T2"),
                                result_value("rootIndices", i), exact=True))
    return problems


def root_agreement(elements: list[Element], known: dict[str, tuple[int | None, Any]]) -> list[Problem]:
    """One tree at one state has one root and one root index: within this proof, and against `known`
    (tree -> the (root, root index) another proof at the same slot gave), which it extends."""
    problems = []
    for i, element in enumerate(elements):
        if element.tree is None or element.root is None:
            continue
        state = (element.root, element.root_index)
        seen = known.setdefault(element.tree, state)
        if seen != state:
            problems.append(Problem("One tree with two roots at one slot",
                                    {"root": _hex(seen[0]), "rootIndex": seen[1]},
                                    {"root": _hex(state[0]), "rootIndex": state[1]},
                                    ("ledger-T1",), result_value("roots", i), exact=True))
    return problems


def _hex(value: int | None) -> str:
    return "unreadable" if value is None else f"0x{value:064x}"
