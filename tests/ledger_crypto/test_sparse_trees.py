"""Trees at the chain's scale: leaves at any index in O(height) hashes, heights 26/32/40, per-tree history."""

import random

import pytest
from csi_conformance.ledger_crypto import (
    BATCHED_ADDRESS_HEIGHT,
    BATCHED_STATE_HEIGHT,
    FIELD_MODULUS,
    HEIGHT,
    MAX_HEIGHT,
    ZERO_HASHES,
    StateTree,
    fold_path,
    merkle,
    poseidon,
    zero_hashes,
)

Z32 = "2f68a1c58e257e42a17a6c61dff5551ed560b9922ab119d5ac8e184c9734ead9"
Z40 = "1334fa4b552f00ef403361c935c1abcf896851003c40daa93bb0fd0a0bb9a881"


def random_leaves(count: int, seed: int) -> list[bytes]:
    rng = random.Random(seed)
    return [rng.randrange(1, FIELD_MODULUS).to_bytes(32, "big") for _ in range(count)]


def model_root(leaves: dict[int, bytes], height: int) -> bytes:
    """The root by definition: every level computed from the one below, absent nodes the zero hashes."""
    zeros = [bytes(32)]
    for _ in range(height):
        zeros.append(poseidon(zeros[-1], zeros[-1]))
    level = dict(leaves)
    for h in range(height):
        parents = {i >> 1 for i in level}
        level = {p: poseidon(level.get(2 * p, zeros[h]), level.get(2 * p + 1, zeros[h])) for p in parents}
    return level.get(0, zeros[height])


class CountingHasher:
    """Stands in for the trees' two-input Poseidon and counts its calls."""

    def __init__(self, real):
        self.real, self.calls = real, 0

    def hash_bytes_be(self, inputs):
        self.calls += 1
        return self.real.hash_bytes_be(inputs)


@pytest.fixture
def hashes(monkeypatch):
    counter = CountingHasher(merkle._HASHER2)
    monkeypatch.setattr(merkle, "_HASHER2", counter)
    return counter


def test_zero_hashes_up_to_40():
    zeros = zero_hashes(MAX_HEIGHT)
    assert MAX_HEIGHT == BATCHED_ADDRESS_HEIGHT == 40 and BATCHED_STATE_HEIGHT == 32
    assert zeros[: HEIGHT + 1] == ZERO_HASHES
    assert zeros[32].hex() == Z32 and zeros[40].hex() == Z40
    assert zeros[33] == poseidon(zeros[32], zeros[32])
    assert zero_hashes(3) == zeros[:4]
    for bad in (-1, 41, True, "3"):
        with pytest.raises(ValueError):
            zero_hashes(bad)


@pytest.mark.parametrize("height", [BATCHED_STATE_HEIGHT, BATCHED_ADDRESS_HEIGHT])
def test_empty_batched_trees(height):
    tree = StateTree(height=height, history_size=200)
    assert tree.root == zero_hashes(height)[height]
    assert (tree.next_index, tree.seq, tree.root_index, tree.capacity) == (0, 0, 0, 1 << height)


@pytest.mark.parametrize("bad", [0, 41, True, "32"])
def test_heights_outside_1_to_40_are_refused(bad):
    with pytest.raises(ValueError):
        StateTree(height=bad)


@pytest.mark.parametrize(("height", "index"), [(32, 2**31), (40, 2**39), (26, 60_000_000), (32, 2**32 - 1)])
def test_a_far_write_costs_height_hashes_and_proves(hashes, height, index):
    tree = StateTree(height=height)
    leaf, other = random_leaves(2, seed=index % 1000)
    assert tree.write_leaves({index: leaf}, seq=1) == 1
    assert hashes.calls == height
    assert tree.next_index == index + 1
    expected = leaf
    for level in range(height):  # the only non-zero leaf: every sibling is a zero hash
        sibling = zero_hashes(height)[level]
        expected = poseidon(sibling, expected) if (index >> level) & 1 else poseidon(expected, sibling)
    assert tree.root == expected
    path = tree.proof(index)
    assert path == list(zero_hashes(height)[:height])
    assert fold_path(leaf, index, path) == tree.root
    assert tree.leaf(index) == leaf and tree.leaf(index // 2) == bytes(32)
    hashes.calls = 0
    if index + 1 < tree.capacity:
        assert tree.append(other) == (index + 1, 2)  # an append after it is far too: still `height` hashes
        assert hashes.calls == height
        assert fold_path(leaf, index, tree.proof(index)) == tree.root
        assert fold_path(other, index + 1, tree.proof(index + 1)) == tree.root


def test_far_leaves_meet_the_dense_prefix():
    """Appends from 0 that reach leaves written far away take them in; the root is the model's."""
    height = 12
    tree = StateTree(height=height)
    far = dict(zip([300, 301, 1000, 4095], random_leaves(4, seed=3), strict=True))
    tree.write_leaves(far, seq=4)
    appended = random_leaves(310, seed=4)
    tree.write_many(appends=[])  # nothing to do: nothing changes
    assert tree.root == model_root(far, height) and tree.next_index == 4096
    tree.write_leaves(dict(enumerate(appended)), seq=5)  # 0..309 overwrite 300 and 301
    model = {**far, **dict(enumerate(appended))}
    assert tree.root == model_root(model, height)
    for i in (0, 299, 305, 999, 1000, 4095):
        assert fold_path(model.get(i, bytes(32)), i, tree.proof(i)) == tree.root


def test_random_writes_match_the_model():
    """Appends, nullifications and writes anywhere, mixed: root, leaves, proofs and next index as defined."""
    rng = random.Random(7)
    for _ in range(60):
        height = rng.choice([4, 7, 10])
        tree, model = StateTree(height=height, history_size=7), {}
        for _ in range(rng.randrange(1, 9)):
            roll = rng.random()
            if roll < 0.3 and tree.next_index < tree.capacity:
                batch = random_leaves(rng.randrange(1, min(5, tree.capacity - tree.next_index) + 1), rng.random())
                start = tree.next_index
                tree.append_many(batch)
                model.update(enumerate(batch, start))
            elif roll < 0.5 and tree.next_index:
                indices = rng.sample(range(tree.next_index), min(3, tree.next_index))
                tree.nullify_many(indices)
                model.update(dict.fromkeys(indices, bytes(32)))
            else:
                writes = {rng.randrange(tree.capacity): leaf for leaf in random_leaves(rng.randrange(4), rng.random())}
                tree.write_leaves(writes, seq=tree.seq + rng.randrange(3))
                model.update(writes)
            assert tree.root == model_root(model, height)
            assert tree.next_index == (max(model) + 1 if model else 0)
            for i in rng.sample(range(tree.next_index), min(3, tree.next_index)):
                assert tree.leaf(i) == model.get(i, bytes(32))
                assert fold_path(tree.leaf(i), i, tree.proof(i)) == tree.root


def test_a_near_write_fills_the_gap_like_appends_of_zero():
    tree, reference = StateTree(height=BATCHED_STATE_HEIGHT), StateTree(height=BATCHED_STATE_HEIGHT)
    leaves = random_leaves(3, seed=8)
    tree.write_leaves({0: leaves[0], 40: leaves[1], 2**31 + 5: leaves[2]}, seq=1)
    reference.append_many([leaves[0], *[bytes(32)] * 39, leaves[1]])
    reference.write_leaves({2**31 + 5: leaves[2]}, seq=1)
    assert tree.root == reference.root
    assert tree.proof(40) == reference.proof(40)


def test_per_tree_history_and_seq_jumps():
    """A batched tree takes one seq per batch event: the root goes to seq % that tree's history size."""
    tree = StateTree(height=BATCHED_STATE_HEIGHT, history_size=200)
    roots = {}
    for seq, index in ((1, 0), (2, 10), (250, 20), (251, 30), (1000, 2**31)):
        assert tree.write_leaves({index: random_leaves(1, seed=seq)[0]}, seq=seq) == seq
        roots[seq] = tree.root
        assert tree.root_index == seq % 200
        assert tree.history_root(seq % 200) == tree.root
    assert tree.history_root(1) is None  # 1000 - 251 >= 200: every older slot was cleared
    assert tree.history_root(250 % 200) is None
    tree.write_leaves({1: random_leaves(1, seed=5)[0]}, seq=1001)
    assert tree.history_root(0) == roots[1000] and tree.history_root(1) == tree.root
    with pytest.raises(IndexError):
        tree.history_root(200)


@pytest.mark.parametrize("bad", [0, -3, True, "200"])
def test_history_size_must_be_a_positive_integer(bad):
    with pytest.raises(ValueError):
        StateTree(height=BATCHED_STATE_HEIGHT, history_size=bad)


def test_write_leaves_past_a_batched_tree_is_refused_without_change():
    tree = StateTree(height=BATCHED_STATE_HEIGHT, history_size=200)
    tree.write_leaves({2**31: random_leaves(1, seed=9)[0]}, seq=3)
    before = (tree.root, tree.seq, tree.next_index)
    with pytest.raises(IndexError):
        tree.write_leaves({2**32: bytes(32)}, seq=4)
    with pytest.raises(ValueError):
        tree.write_leaves({5: FIELD_MODULUS.to_bytes(32, "big")}, seq=4)
    assert (tree.root, tree.seq, tree.next_index) == before
