"""The roots a target serves, looked up in the on-chain root history of their trees (ledger-T3).

A state or address tree account keeps its last roots in a cyclic history (2400 for v1 trees); a
transaction names a root by its index there, and the program checks the proof against the root it
finds at that index, not against the one the indexer served. So a served root must be the one the
chain holds at the index served with it: `rootIndices[i]` for an element of a validity proof,
`rootSeq` modulo the history's length for a new-address proof. A root found elsewhere in the
history says the index is wrong (the index where it is, and the seq that wrote it, are the values
expected); a root found nowhere was never on-chain.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from csi_conformance.groundwork.base58 import b58encode
from csi_conformance.harness.core.paths import result_value
from csi_conformance.harness.core.values import clip
from csi_conformance.harness.verify.validity import Problem, elements_of
from csi_conformance.harness.verify.values import bn_value

if TYPE_CHECKING:
    from csi_conformance.ledger_chain.judging import ChainJudge, RootHistory

__all__ = ["Histories", "Served", "address_roots", "root_problems", "validity_roots"]

CLAUSES = ("ledger-T3",)


@dataclass(frozen=True)
class Served:
    """One root an answer serves: the tree it belongs to on-chain, what the answer names, and where."""

    tree: str
    named_tree: Any
    root: Any
    index: Any
    by_seq: bool
    """`index` is a sequence number (`rootSeq`), read modulo the history's length."""
    root_path: str
    index_path: str
    tree_path: str


class Histories:
    """The on-chain root history of each tree of a chain, read once (simulations never change it)."""

    def __init__(self, chain: ChainJudge) -> None:
        self._chain = chain
        self._histories = {tree: chain.root_history(tree) for tree in (*chain.state_trees, chain.address_tree)}

    def get(self, tree: str) -> RootHistory:
        """A tree's history; a batched tree's (a v2 proof's) is read when first asked."""
        if tree not in self._histories:
            self._histories[tree] = self._chain.root_history(tree)
        return self._histories[tree]


def validity_roots(value: Any, trees: tuple[str, ...]) -> list[Served] | Problem:
    """The roots of a validity proof of these elements' trees (accounts first, then addresses)."""
    elements, problems = elements_of(value, len(trees))
    if problems:
        first = problems[0]
        return Problem(first.title, first.expected, first.received, CLAUSES, first.path, first.exact)
    named = "merkleTrees" if isinstance(value.get("merkleTrees"), list) else "treeInfos"
    return [Served(tree, element.tree, value["roots"][i], element.root_index, False, result_value("roots", i),
                   result_value("rootIndices", i), result_value(named, i))
            for i, (tree, element) in enumerate(zip(trees, elements, strict=True))]


def address_roots(value: Any, asked: int, tree: str) -> list[Served] | Problem:
    """The roots of the new-address proofs of `asked` addresses in the address tree `tree`."""
    if not isinstance(value, list) or len(value) != asked or not all(isinstance(item, dict) for item in value):
        return Problem("No new-address proof per address", f"a list of {asked} NewAddressProof objects",
                       clip(value), CLAUSES, result_value())
    return [Served(tree, item.get("merkleTree"), item.get("root"), item.get("rootSeq"), True,
                   result_value(i, "root"), result_value(i, "rootSeq"), result_value(i, "merkleTree"))
            for i, item in enumerate(value)]


def root_problems(histories: Histories, served: Served) -> list[Problem]:
    """What is wrong with one served root against its tree's on-chain history: nothing when the chain holds
    that root at the index served."""
    history = histories.get(served.tree)
    problems = []
    if served.named_tree is not None and served.named_tree != served.tree:
        problems.append(Problem("Tree is not the element's on-chain tree", served.tree, served.named_tree, CLAUSES,
                                served.tree_path, exact=True))
    number = bn_value(served.root)
    if number is None or not 0 <= number < 2**256:
        return [*problems, Problem("Root unreadable", "a 32-byte root: base58, or an integer below 2^256",
                                   clip(served.root), CLAUSES, served.root_path)]
    if type(served.index) is not int or served.index < 0:
        return [*problems, Problem("Root index unreadable", "a non-negative integer", clip(served.index), CLAUSES,
                                   served.index_path)]
    return problems + _against_history(history, served, number.to_bytes(32, "big"))


def _against_history(history: RootHistory, served: Served, root: bytes) -> list[Problem]:
    size = len(history.roots)
    position = served.index % size if served.by_seq else served.index
    if position >= size:
        return [Problem("Root index outside the on-chain root history", f"an index below {size}, the length of "
                        f"tree {served.tree}'s root history", served.index, CLAUSES, served.index_path)]
    if history.roots[position] == root:
        return []
    found = [i for i, held in enumerate(history.roots) if held == root and _written(history, i)]
    if found:
        expected = _seq_at(history, found[0]) if served.by_seq else found[0]
        return [Problem("Root index names another on-chain root", expected, served.index, CLAUSES, served.index_path,
                        exact=True)]
    if not _written(history, position):
        return [Problem("Root never on-chain", f"a root of tree {served.tree}'s on-chain history, at an index "
                        f"written so far (at most {history.current_index})", served.root, CLAUSES,
                        served.root_path)]
    return [Problem("Root never on-chain", _like(served.root, history.roots[position]), served.root, CLAUSES,
                    served.root_path, exact=True)]


def _written(history: RootHistory, position: int) -> bool:
    """Whether the tree has written a root at `position` of its history (every one, once the history wrapped)."""
    return history.sequence_number >= len(history.roots) or position <= history.current_index


def _seq_at(history: RootHistory, position: int) -> int:
    """The sequence number that wrote the root now at `position` (the latest one that maps there)."""
    return history.sequence_number - (history.current_index - position) % len(history.roots)


def _like(served: Any, root: bytes) -> Any:
    """An on-chain root in the form the answer used: a JSON integer (§2.10's reading) or base58."""
    return int.from_bytes(root, "big") if type(served) is int else b58encode(root)
