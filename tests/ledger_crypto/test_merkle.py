"""State tree: zero hashes, proofs, updates, bulk appends, cyclic root history."""

import random

import pytest
from csi_conformance.ledger_crypto import (
    FIELD_MODULUS,
    HEIGHT,
    ROOT_HISTORY,
    ZERO_HASHES,
    StateTree,
    fold_path,
    poseidon,
)

EMPTY_ROOT = "120c58f143d491e95902f7f5277778a2e0ad5168f6add75669932630ce611518"


def random_leaves(count: int, seed: int) -> list[bytes]:
    rng = random.Random(seed)
    return [rng.randrange(FIELD_MODULUS).to_bytes(32, "big") for _ in range(count)]


def test_zero_hashes_vectors():
    assert len(ZERO_HASHES) == HEIGHT + 1
    assert ZERO_HASHES[0] == bytes(32)
    assert ZERO_HASHES[1].hex() == "2098f5fb9e239eab3ceac3f27b81e481dc3124d55ffed523a839ee8446b64864"
    assert ZERO_HASHES[2] == poseidon(ZERO_HASHES[1], ZERO_HASHES[1])
    assert ZERO_HASHES[26].hex() == EMPTY_ROOT


def test_empty_tree():
    tree = StateTree()
    assert tree.root.hex() == EMPTY_ROOT
    assert (tree.seq, tree.root_index, tree.next_index) == (0, 0, 0)
    assert tree.history_root(0) == tree.root
    assert tree.history_root(1) is None


def test_root_matches_an_independent_computation():
    l0, l1, l2 = random_leaves(3, seed=13)
    node = poseidon(poseidon(l0, l1), poseidon(l2, ZERO_HASHES[0]))
    for level in range(2, HEIGHT):
        node = poseidon(node, ZERO_HASHES[level])
    for build in ("append", "append_many"):
        tree = StateTree()
        if build == "append":
            for leaf in (l0, l1, l2):
                tree.append(leaf)
        else:
            tree.append_many([l0, l1, l2])
        assert tree.root == node


def test_proofs_fold_to_root_for_random_leaves():
    tree = StateTree()
    leaves = random_leaves(37, seed=1)
    for expected_index, leaf in enumerate(leaves):
        assert tree.append(leaf) == (expected_index, expected_index + 1)
    for index in [*random.Random(2).sample(range(37), 12), 0, 36]:
        path = tree.proof(index)
        assert len(path) == HEIGHT
        assert fold_path(leaves[index], index, path) == tree.root
        # The same path does not prove a neighbouring position or another leaf.
        assert fold_path(leaves[index], index ^ 1, path) != tree.root
        assert fold_path(leaves[(index + 1) % 37], index, path) != tree.root


def test_update_and_nullify_invalidate_old_proofs():
    tree = StateTree()
    leaves = random_leaves(9, seed=3)
    tree.append_many(leaves)
    old_root, old_path, old_neighbour_path = tree.root, tree.proof(4), tree.proof(5)
    assert tree.update(4, leaves[0]) == 10
    assert tree.leaf(4) == leaves[0]
    assert tree.root != old_root
    assert fold_path(leaves[4], 4, old_path) == old_root
    assert fold_path(leaves[4], 4, old_path) != tree.root
    assert fold_path(leaves[0], 4, tree.proof(4)) == tree.root
    # The neighbour's old path still holds the old leaf 4 as its sibling.
    assert fold_path(leaves[5], 5, old_neighbour_path) != tree.root
    assert fold_path(leaves[5], 5, tree.proof(5)) == tree.root

    before_nullify = tree.proof(7)
    assert tree.nullify(7) == 11
    assert tree.leaf(7) == bytes(32)
    assert fold_path(leaves[7], 7, before_nullify) != tree.root
    assert fold_path(bytes(32), 7, tree.proof(7)) == tree.root
    assert tree.history_root(tree.root_index) == tree.root


@pytest.mark.parametrize("first", [0, 1, 5, 8])
def test_append_many_equals_repeated_append(first):
    leaves = random_leaves(45, seed=first)
    one_by_one, bulk = StateTree(), StateTree()
    for leaf in leaves[:first]:
        one_by_one.append(leaf)
        bulk.append(leaf)
    singles = [one_by_one.append(leaf) for leaf in leaves[first:]]
    assert bulk.append_many(leaves[first:]) == singles
    assert bulk.root == one_by_one.root
    assert bulk.seq == one_by_one.seq
    for index in (0, 17, 44):
        assert bulk.proof(index) == one_by_one.proof(index)


def test_append_many_records_only_the_final_root():
    tree = StateTree()
    tree.append(random_leaves(1, seed=4)[0])
    first_root = tree.root
    tree.append_many(random_leaves(5, seed=5))
    assert tree.seq == 6
    assert tree.history_root(1) == first_root
    assert all(tree.history_root(i) is None for i in range(2, 6))
    assert tree.history_root(6) == tree.root
    assert tree.append_many([]) == []
    assert tree.seq == 6


def test_root_history_wraps_at_2400():
    tree = StateTree()
    tree.append_many(random_leaves(ROOT_HISTORY - 1, seed=6))
    assert tree.seq == ROOT_HISTORY - 1
    leaf_a, leaf_b = random_leaves(2, seed=7)
    assert tree.append(leaf_a) == (ROOT_HISTORY - 1, ROOT_HISTORY)
    root_at_2400 = tree.root
    assert tree.root_index == 0
    assert tree.history_root(0) == root_at_2400
    tree.append(leaf_b)
    assert (tree.seq, tree.root_index) == (ROOT_HISTORY + 1, 1)
    assert tree.history_root(1) == tree.root
    assert tree.history_root(0) == root_at_2400


def test_root_history_keeps_the_last_roots_cyclically():
    tree = StateTree(height=4, history_size=5)
    roots = [tree.root]
    for leaf in random_leaves(12, seed=8):
        tree.append(leaf)
        roots.append(tree.root)
    # seq 12: slots hold seqs 8..12, each at seq % 5.
    for seq in range(8, 13):
        assert tree.history_root(seq % 5) == roots[seq]
    tree.append_many(random_leaves(3, seed=9))
    assert tree.seq == 15
    assert tree.history_root(0) == tree.root
    assert tree.history_root(3) is None and tree.history_root(4) is None
    assert tree.history_root(2) == roots[12]
    with pytest.raises(IndexError):
        tree.history_root(5)


def test_full_tree_rejects_more_leaves_atomically():
    tree = StateTree(height=2)
    tree.append_many(random_leaves(3, seed=10))
    root = tree.root
    with pytest.raises(ValueError, match="tree full"):
        tree.append_many(random_leaves(2, seed=11))
    assert (tree.root, tree.seq, tree.next_index) == (root, 3, 3)
    tree.append(random_leaves(1, seed=12)[0])
    with pytest.raises(ValueError, match="tree full"):
        tree.append(bytes(32))


@pytest.mark.parametrize(
    "leaf",
    [bytes(31), bytes(33), FIELD_MODULUS.to_bytes(32, "big"), "00" * 32],
    ids=["short", "long", "modulus", "str"],
)
def test_bad_leaves_are_rejected_without_change(leaf):
    tree = StateTree()
    tree.append(bytes(32))
    root = tree.root
    with pytest.raises(ValueError):
        tree.append(leaf)
    with pytest.raises(ValueError):
        tree.append_many([bytes(32), leaf])
    with pytest.raises(ValueError):
        tree.update(0, leaf)
    assert (tree.root, tree.seq, tree.next_index) == (root, 1, 1)


def test_index_errors():
    tree = StateTree()
    tree.append(bytes(32))
    for bad in (-1, 1):
        with pytest.raises(IndexError):
            tree.proof(bad)
        with pytest.raises(IndexError):
            tree.leaf(bad)
        with pytest.raises(IndexError):
            tree.update(bad, bytes(32))


def test_fold_path_checks_index_range():
    path = list(ZERO_HASHES[:3])
    assert fold_path(bytes(32), 7, path) == ZERO_HASHES[3]
    with pytest.raises(ValueError):
        fold_path(bytes(32), 8, path)
    with pytest.raises(ValueError):
        fold_path(bytes(32), -1, path)


@pytest.mark.parametrize("first", [0, 3, 8])
def test_write_many_equals_appends_then_nullifications_one_by_one(first):
    leaves = random_leaves(40, seed=30 + first)
    one_by_one, bulk = StateTree(), StateTree()
    for leaf in leaves[:first]:
        one_by_one.append(leaf)
        bulk.append(leaf)
    nullify = [i for i in (0, 2, 9, 33, 39) if i < 40]  # some existing, some appended by the same call
    for leaf in leaves[first:]:
        one_by_one.append(leaf)
    for index in nullify:
        one_by_one.nullify(index)
    assert bulk.write_many(appends=leaves[first:], nullify=nullify) == one_by_one.seq
    assert (bulk.root, bulk.seq, bulk.next_index) == (one_by_one.root, one_by_one.seq, one_by_one.next_index)
    for index in (0, 9, 17, 39):
        assert bulk.leaf(index) == one_by_one.leaf(index)
        assert bulk.proof(index) == one_by_one.proof(index)
    assert bulk.history_root(bulk.root_index) == bulk.root


def test_nullify_many_zeroes_existing_leaves_in_one_pass():
    leaves = random_leaves(20, seed=41)
    tree, reference = StateTree(), StateTree()
    tree.append_many(leaves)
    reference.append_many(leaves)
    for index in (4, 5, 19):
        reference.nullify(index)
    assert tree.nullify_many([4, 5, 19]) == reference.seq == 23
    assert tree.root == reference.root
    assert fold_path(bytes(32), 5, tree.proof(5)) == tree.root


@pytest.mark.parametrize("nullify", [[20], [-1], [True], ["1"]])
def test_write_many_rejects_bad_indices_without_change(nullify):
    tree = StateTree()
    tree.append_many(random_leaves(10, seed=42))
    root, seq = tree.root, tree.seq
    with pytest.raises((IndexError, ValueError)):
        tree.write_many(appends=random_leaves(10, seed=43), nullify=nullify)
    assert (tree.root, tree.seq, tree.next_index) == (root, seq, 10)


# -- leaves and seq as a ledger read from the chain gives them -------------------------------------

def test_write_leaves_at_given_indices_holds_zero_between():
    """Leaves written at 1 and 4 of an empty tree: the tree of appends with zero at 0, 2 and 3."""
    a, b = random_leaves(2, seed=20)
    tree = StateTree()
    assert tree.write_leaves({4: b, 1: a}, seq=7) == 7
    reference = StateTree()
    reference.append_many([bytes(32), a, bytes(32), bytes(32), b])
    assert (tree.root, tree.next_index, tree.leaf(2)) == (reference.root, 5, bytes(32))
    assert fold_path(b, 4, tree.proof(4)) == tree.root
    assert (tree.seq, tree.history_root(7)) == (7, tree.root)
    assert [tree.history_root(s) for s in range(1, 7)] == [None] * 6  # seqs the tree never had a root at


def test_write_leaves_overwrites_and_never_takes_seq_back():
    a, b, c = random_leaves(3, seed=21)
    tree = StateTree()
    tree.write_leaves({0: a, 1: b}, seq=10)
    tree.write_leaves({0: c}, seq=4)  # an older write of another leaf: the tree stays at seq 10
    reference = StateTree()
    reference.append_many([c, b])
    assert (tree.root, tree.seq, tree.history_root(10)) == (reference.root, 10, reference.root)


@pytest.mark.parametrize(("leaves", "seq", "error"), [
    ({-1: bytes(32)}, 5, IndexError),
    ({1 << HEIGHT: bytes(32)}, 5, IndexError),
    ({1 << 40: bytes(32)}, 5, IndexError),  # refused before any room is made for it
    ({"1": bytes(32)}, 5, ValueError),
    ({3: FIELD_MODULUS.to_bytes(32, "big")}, 5, ValueError),
    ({3: bytes(32)}, "5", ValueError),
], ids=["negative", "capacity", "far", "str-index", "modulus", "str-seq"])
def test_write_leaves_rejects_without_change(leaves, seq, error):
    tree = StateTree()
    tree.write_leaves({0: random_leaves(1, seed=22)[0]}, seq=2)
    before = (tree.root, tree.seq, tree.next_index, tree.history_root(2))
    with pytest.raises(error):
        tree.write_leaves(leaves, seq=seq)
    assert (tree.root, tree.seq, tree.next_index, tree.history_root(2)) == before
