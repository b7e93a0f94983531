"""Batched (v2) address tree: initial state, insertions, non-inclusion proofs, the real batch roots."""

import dataclasses
import json
import random
from pathlib import Path

import pytest
from csi_conformance.ledger_crypto import (
    BATCHED_ADDRESS_HEIGHT,
    HIGHEST_ADDRESS_PLUS_ONE,
    AddressExistsError,
    AddressTree,
    BatchedAddressTree,
    fold_path,
    poseidon,
    verify_non_inclusion,
    zero_hashes,
)

INIT_ROOT = "1c416bffd0ea3303835f3e82cab1b01ad85140b8c8195f7cf8812c6de5926a4c"
FIXTURE = Path(__file__).with_name("fixtures") / "batched_address_appends.json"


def word(value: int) -> bytes:
    return value.to_bytes(32, "big")


def root_of(leaves: dict[int, bytes]) -> bytes:
    """Height-40 root from explicit leaves, every level by definition."""
    zeros = zero_hashes(BATCHED_ADDRESS_HEIGHT)
    level = dict(leaves)
    for h in range(BATCHED_ADDRESS_HEIGHT):
        parents = {i >> 1 for i in level}
        level = {p: poseidon(level.get(2 * p, zeros[h]), level.get(2 * p + 1, zeros[h])) for p in parents}
    return level[0]


def test_initial_state():
    tree = BatchedAddressTree()
    assert tree.root.hex() == INIT_ROOT
    assert tree.root == root_of({0: poseidon(word(0), word(HIGHEST_ADDRESS_PLUS_ONE))})
    assert (tree.height, tree.next_index, tree.seq, tree.root_index) == (40, 1, 0, 0)
    assert tuple(tree.element(0)) == (0, 0, HIGHEST_ADDRESS_PLUS_ONE)
    assert tree.history_root(0) == tree.root
    assert HIGHEST_ADDRESS_PLUS_ONE not in tree and 0 in tree


def test_one_insertion_against_an_independent_computation():
    value = 0x0F8EE15579E49FA6A914B0E379661D1B9577881C1AF1852C636FF8D293E7A9
    tree = BatchedAddressTree(history_size=200)
    assert tree.insert(value) == 1
    expected = root_of({0: poseidon(word(0), word(value)), 1: poseidon(word(value), word(HIGHEST_ADDRESS_PLUS_ONE))})
    assert tree.root == expected
    assert (tree.seq, tree.root_index, tree.next_index) == (1, 1, 2)
    assert tuple(tree.element(0)) == (0, 1, value) and tuple(tree.element(1)) == (value, 0, HIGHEST_ADDRESS_PLUS_ONE)


def test_the_real_batch_address_appends():
    """The 50 queued addresses, inserted in queue order batch by batch, give each event's stated root."""
    data = json.loads(FIXTURE.read_text())
    values = [int(a, 16) for a in data["addresses"]]
    tree = BatchedAddressTree(history_size=200)
    for event in data["events"]:
        batch = values[event["old_next_index"] - 1 : event["new_next_index"] - 1]
        indices = tree.insert_batch(batch, seq=event["sequence_number"])
        assert indices == list(range(event["old_next_index"], event["new_next_index"]))
        assert (tree.root.hex(), tree.root_index, tree.next_index) == (
            event["new_root"], event["root_index"], event["new_next_index"])
    assert len(data["events"]) == 5 and tree.next_index == 51


def test_insert_many_equals_one_by_one_but_counts_one_operation():
    rng = random.Random(3)
    values = [rng.randrange(1, HIGHEST_ADDRESS_PLUS_ONE) for _ in range(30)] + [1000 + i for i in (5, 3, 9, 1)]
    one_by_one, bulk = BatchedAddressTree(), BatchedAddressTree()
    singles = [one_by_one.insert(v) for v in values]
    assert bulk.insert_many(values) == singles
    assert bulk.root == one_by_one.root
    assert (bulk.seq, one_by_one.seq) == (1, len(values))
    assert [bulk.element(i) for i in range(bulk.next_index)] == [one_by_one.element(i) for i in range(bulk.next_index)]


def test_non_inclusion_proofs():
    tree = BatchedAddressTree(history_size=120)
    tree.insert_batch([100, 300, 200], seq=121)
    for value, low in ((150, 100), (250, 200), (301, 300), (HIGHEST_ADDRESS_PLUS_ONE - 1, 300), (1, 0)):
        proof = tree.non_inclusion_proof(value)
        assert proof.low_value == low and proof.low_value < value < proof.low_next_value
        assert len(proof.path) == BATCHED_ADDRESS_HEIGHT
        assert (proof.root, proof.root_seq, proof.root_index) == (tree.root, 121, 1)
        leaf = poseidon(word(proof.low_value), word(proof.low_next_value))
        assert fold_path(leaf, proof.low_leaf_index, proof.path) == tree.root
        assert verify_non_inclusion(proof, height=BATCHED_ADDRESS_HEIGHT, batched=True)
        assert not verify_non_inclusion(proof, height=BATCHED_ADDRESS_HEIGHT)  # v1 leaves hash 3 fields
        assert not verify_non_inclusion(proof, batched=True)  # a 26-level path is expected there
    assert tree.non_inclusion_proof(301).low_next_value == HIGHEST_ADDRESS_PLUS_ONE
    for value in (100, 200, 300):
        with pytest.raises(AddressExistsError):
            tree.non_inclusion_proof(value)


@pytest.mark.parametrize("change", [
    lambda p: {"low_next_value": p.low_next_value + 1},
    lambda p: {"value": p.low_next_value},
    lambda p: {"low_leaf_index": p.low_leaf_index + 1},
    lambda p: {"path": (bytes(32), *p.path[1:])},
], ids=["next-value", "value-at-next", "leaf-index", "sibling"])
def test_tampered_proofs_do_not_verify(change):
    tree = BatchedAddressTree()
    tree.insert_many([100, 200, 300])
    proof = tree.non_inclusion_proof(250)
    bad = dataclasses.replace(proof, **change(proof))
    assert verify_non_inclusion(bad, height=BATCHED_ADDRESS_HEIGHT, batched=True) is False


@pytest.mark.parametrize("bad", [0, HIGHEST_ADDRESS_PLUS_ONE, 2**248, -1, True, "5"])
def test_values_outside_the_range_are_refused_without_change(bad):
    tree = BatchedAddressTree()
    with pytest.raises(ValueError) as info:
        tree.insert_batch([7, bad], seq=1)
    assert not isinstance(info.value, AddressExistsError)
    with pytest.raises(ValueError):
        tree.non_inclusion_proof(bad)
    assert (tree.root.hex(), tree.seq, tree.next_index) == (INIT_ROOT, 0, 1) and 7 not in tree


def test_duplicates_and_bad_seq_are_refused_without_change():
    tree = BatchedAddressTree()
    tree.insert(77)
    before = (tree.root, tree.seq, tree.next_index)
    with pytest.raises(AddressExistsError):
        tree.insert_batch([5, 77], seq=9)
    with pytest.raises(AddressExistsError):
        tree.insert_many([5, 5])
    with pytest.raises(ValueError):
        tree.insert_batch([5], seq="9")
    assert (tree.root, tree.seq, tree.next_index) == before and 5 not in tree


def test_v1_tree_keeps_three_input_leaves_and_takes_a_batch_seq():
    tree = AddressTree()
    tree.insert_batch([5, 9], seq=40)
    reference = AddressTree()
    reference.insert_many([5, 9])
    assert tree.root == reference.root and (tree.seq, reference.seq) == (40, 7)
    assert verify_non_inclusion(tree.non_inclusion_proof(6))
