"""Trees rebuilt from what the kit saw: the states a tree can be in at a seq, and what discovery's keys give.

The rebuild must hold the true state whatever subset of spent leaves a forester has zeroed, say "none"
for a seq the tree cannot have, and "undetermined" rather than guess when the states are many.
"""

from __future__ import annotations

import hashlib
import random

import pytest
from csi_conformance.groundwork.base58 import b58encode
from csi_conformance.harness.checks.crypto.known_trees import state_leaves
from csi_conformance.harness.checks.crypto.trees import (
    MAX_CANDIDATES,
    MAX_LEAVES,
    StateLeaves,
    address_tree_of,
    candidate_roots,
)
from csi_conformance.harness.core.keys import Keys
from csi_conformance.ledger_crypto import ROOT_HISTORY, AddressTree, StateTree


def _leaf(i: int) -> bytes:
    return b"\x00" + hashlib.sha256(f"leaf {i}".encode()).digest()[1:]


def _leaves(n: int, spent: list[int]) -> StateLeaves:
    leaves = tuple(_leaf(i) for i in range(n))
    return StateLeaves("tree", tuple(b58encode(leaf) for leaf in leaves), leaves, tuple(sorted(spent)))


def _tree(leaves: StateLeaves, nullified: list[int]) -> StateTree:
    tree = StateTree()
    for leaf in leaves.leaves:
        tree.append(leaf)
    for index in nullified:
        tree.nullify(index)
    return tree


@pytest.mark.parametrize("seed", range(4))
def test_every_forester_state_is_a_candidate(seed: int) -> None:
    """Whichever spent leaves were zeroed, in whatever order, the tree's root is a candidate at its seq, with
    exactly those leaves; every other candidate nullifies as many."""
    rng = random.Random(seed)
    n = rng.randrange(5, 40)
    spent = rng.sample(range(n), rng.randrange(1, 5))
    zeroed = rng.sample(spent, rng.randrange(0, len(spent) + 1))
    leaves = _leaves(n, spent)
    tree = _tree(leaves, zeroed)
    states = candidate_roots(leaves, tree.seq)
    assert states is not None and states[tree.root] == frozenset(zeroed)
    assert {len(subset) for subset in states.values()} == {len(zeroed)}


def test_all_spent_nullified_is_one_state() -> None:
    leaves = _leaves(23, [1, 5, 9, 17, 22])
    tree = _tree(leaves, [22, 1, 9, 5, 17])
    assert candidate_roots(leaves, tree.seq) == {tree.root: frozenset({1, 5, 9, 17, 22})}


def test_a_live_leaf_zeroed_is_no_state() -> None:
    leaves = _leaves(10, [2, 3])
    tree = _tree(leaves, [2, 4])  # 4 is live: no forester zeroes it
    states = candidate_roots(leaves, tree.seq)
    assert states is not None and tree.root not in states


def test_seqs_outside_appends_and_spends_have_no_state() -> None:
    leaves = _leaves(10, [2, 3])
    assert candidate_roots(leaves, 9) == {}
    assert candidate_roots(leaves, 13) == {}


def test_too_many_states_are_undetermined() -> None:
    leaves = _leaves(40, list(range(0, 40, 2)))
    half = len(leaves.spent) // 2
    assert candidate_roots(leaves, leaves.appends + half) is None
    assert candidate_roots(leaves, leaves.appends + len(leaves.spent)) is not None
    assert MAX_CANDIDATES < 184756  # C(20, 10)


def test_root_index_names_seqs_modulo_the_history() -> None:
    leaves = _leaves(ROOT_HISTORY - 2, [0, 1, 2, 3, 4])
    assert leaves.seqs_for((ROOT_HISTORY - 2) % ROOT_HISTORY) == [ROOT_HISTORY - 2]
    assert leaves.seqs_for(2) == [ROOT_HISTORY + 2]
    assert leaves.seqs_for(3) == [ROOT_HISTORY + 3]
    assert leaves.seqs_for(4) == []
    assert leaves.seqs_for(100) == []


@pytest.mark.parametrize("seed", range(3))
def test_an_address_tree_is_its_elements_at_their_indices(seed: int) -> None:
    rng = random.Random(seed)
    values = [rng.randrange(1, 2**248) for _ in range(rng.randrange(1, 8))]
    tree = AddressTree()
    for value in values:
        tree.insert(value)
    held = {index: tree.element(index).value for index in range(2, tree.next_index)}
    rebuilt = address_tree_of(held)
    assert rebuilt is not None and (rebuilt.root, rebuilt.seq) == (tree.root, tree.seq)


def test_address_elements_no_insertions_give_are_refused() -> None:
    assert address_tree_of({2: 5, 4: 7}) is None
    assert address_tree_of({2: 5, 3: 5}) is None
    assert address_tree_of({}).root == AddressTree().root


def _account(tree: str, index: int, text: str) -> dict:
    return {"tree": tree, "leafIndex": index, "hash": b58encode(b"\x00" + hashlib.sha256(text.encode()).digest()[1:])}


def test_keys_give_leaves_only_without_gaps() -> None:
    keys = Keys()
    first, second = [_account("A", i, f"a{i}") for i in range(3)], [_account("B", i, f"b{i}") for i in (0, 2)]
    for account in first + second:
        keys.touched[account["hash"]] = {"account": account, "tokenData": None}
    keys.transactions["sig"] = {"opened": [a["hash"] for a in first], "closed": [first[1]["hash"]]}
    known, unknown = state_leaves(keys)
    assert set(known) == {"A"} and known["A"].spent == (1,) and known["A"].appends == 3
    assert "B" in unknown and "first: 1" in unknown["B"]


def test_two_accounts_at_one_leaf_make_the_tree_unknown() -> None:
    keys = Keys()
    for account in (_account("A", 0, "x"), _account("A", 0, "y")):
        keys.accounts[account["hash"]] = account
    known, unknown = state_leaves(keys)
    assert known == {} and "two accounts at leaf index 0" in unknown["A"]


def test_a_tree_too_large_to_rebuild_is_said_so() -> None:
    keys = Keys()
    account = _account("A", MAX_LEAVES, "far")
    keys.accounts[account["hash"]] = account
    known, unknown = state_leaves(keys)
    assert known == {} and f"more than the {MAX_LEAVES} leaves" in unknown["A"]
