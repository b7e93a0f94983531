"""Trees rebuilt from what the kit saw: the roots a state or address tree can have had at a given seq.

A state tree's seq counts every append and every nullification (ledger-facts.md, ledger-T4). Where
the kit knows every leaf a tree holds (its n appends, and which of them transactions spent), the seq
a root is served with says how many nullifications the tree had applied: k = seq - n. Which k of the
spent leaves were zeroed is not visible through the API (a forester zeroes them later, in an order of
its own), so the candidate roots are those of every k-subset of the spent leaves: all of them when
the subsets are few, and none, the state undetermined, when they are many. A root index
(seq % 2400) names one seq in n .. n + spent while fewer than 2400 leaves are spent.

A batched (v2) state tree keeps none of this: its seq counts batch events (an append or a nullification of a
whole zkp batch, of a size the tree's account holds), its root index is a place in its own root history (of a
length the tree's account holds too), and a nullified leaf becomes a nullifier bound to the spending
transaction. What the kit soundly knows of it is that until its first nullification its root is that of its
first m leaves, for some m (`appended_roots`).

An address tree's seq is 3 plus 2 per address inserted, and an element's index says when it was
inserted (the k-th insertion lands at index k + 1): the addresses a tree holds, at their indices,
make one tree and one root.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import combinations

from csi_conformance.ledger_crypto import (
    BATCHED_STATE_HEIGHT,
    ROOT_HISTORY,
    AddressExistsError,
    AddressTree,
    StateTree,
)

__all__ = ["FRESH_ADDRESS_SEQ", "MAX_CANDIDATES", "MAX_LEAVES", "StateLeaves", "address_tree_of",
           "appended_roots", "candidate_roots"]

MAX_CANDIDATES = 64
"""Nullified subsets rebuilt at most for one seq: more, and the state counts as undetermined."""
MAX_LEAVES = 4096
"""Leaves of a tree rebuilt at most (about 8,000 Poseidon hashes): `known_trees.state_leaves` leaves a larger
tree unknown."""
FRESH_ADDRESS_SEQ = 3
"""Seq of an address tree holding only its two sentinel elements."""


@dataclass(frozen=True)
class StateLeaves:
    """Every leaf a state tree was appended, by leaf index, and the leaves transactions spent."""

    tree: str
    hashes: tuple[str, ...]
    """The account hash appended at each leaf index (base58), 0 .. n - 1."""
    leaves: tuple[bytes, ...]
    spent: tuple[int, ...]
    """Leaf indices of the accounts a transaction closed: the only leaves a nullification zeroes."""

    @property
    def appends(self) -> int:
        return len(self.leaves)

    def seqs_for(self, root_index: int) -> list[int]:
        """The seqs the tree can have with this root index: n appends and 0 .. spent nullifications."""
        low, high = self.appends, self.appends + len(self.spent)
        first = low + (root_index - low) % ROOT_HISTORY
        return list(range(first, high + 1, ROOT_HISTORY))

    def seq_bounds(self) -> tuple[int, int]:
        return self.appends, self.appends + len(self.spent)


def candidate_roots(leaves: StateLeaves, seq: int) -> dict[bytes, frozenset[int]] | None:
    """Root -> the leaf indices nullified, for every state the tree can be in at `seq`; None when there are
    more than `MAX_CANDIDATES` of them (undetermined), {} when none (a seq the tree cannot have)."""
    nullified = seq - leaves.appends
    if not 0 <= nullified <= len(leaves.spent):
        return {}
    if math.comb(len(leaves.spent), nullified) > MAX_CANDIDATES:
        return None
    appended = StateTree()
    appended.append_many(leaves.leaves)
    found: dict[bytes, frozenset[int]] = {}
    for subset in combinations(leaves.spent, nullified):
        tree = copy.deepcopy(appended) if subset else appended
        tree.nullify_many(subset)
        found.setdefault(tree.root, frozenset(subset))
    return found


def appended_roots(leaves: StateLeaves) -> dict[bytes, int]:
    """Root -> how many leaves it holds, for every state a batched state tree of these leaves has before its first
    nullification: its first m leaves appended, m = 0 .. n (a batch appends the output queue's oldest first)."""
    tree = StateTree(height=BATCHED_STATE_HEIGHT)
    found = {tree.root: 0}
    for leaf in leaves.leaves:
        tree.append(leaf)
        found.setdefault(tree.root, tree.next_index)
    return found


def address_tree_of(elements: Mapping[int, int]) -> AddressTree | None:
    """The address tree holding these values at these element indices (index -> value), or None when no
    insertions put them there (the indices are not 2, 3, … without a gap, or a value repeats)."""
    if sorted(elements) != list(range(2, 2 + len(elements))):
        return None
    tree = AddressTree()
    try:
        tree.insert_many([elements[index] for index in sorted(elements)])
    except (AddressExistsError, ValueError):
        return None
    return tree
