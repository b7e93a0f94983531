"""Address tree: fresh-tree vector, inserts, non-inclusion proofs, bulk inserts."""

import dataclasses
import random

import pytest
from csi_conformance.groundwork.base58 import b58encode
from csi_conformance.ledger_crypto import (
    HEIGHT,
    HIGHEST_ADDRESS_PLUS_ONE,
    AddressExistsError,
    AddressTree,
    StateTree,
    derive_address,
    element_leaf,
    verify_non_inclusion,
)

FRESH_ROOT = "218538b88ea66ea1048ca9f773210fb54c59307e3a56cc511079b94d4b982b0f"
FRESH_ROOT_B58 = "3FrGzyXtjqjnukHDS2M5oyVj8tMVcHSahcHpWBGR5MHY"


def random_values(count: int, seed: int) -> list[int]:
    rng = random.Random(seed)
    return [rng.randrange(1, HIGHEST_ADDRESS_PLUS_ONE) for _ in range(count)]


def linked_values(tree: AddressTree) -> list[int]:
    """Walk the element list from element 0; it must visit all elements in order."""
    values, index = [], 0
    for _ in range(tree.next_index):
        element = tree.element(index)
        values.append(element.value)
        if element.next_index == 0:
            break
        assert tree.element(element.next_index).value == element.next_value
        index = element.next_index
    return values


def test_fresh_tree_vector():
    tree = AddressTree()
    assert tree.root.hex() == FRESH_ROOT
    assert b58encode(tree.root) == FRESH_ROOT_B58
    assert tree.seq == 3
    assert tuple(tree.element(0)) == (0, 1, HIGHEST_ADDRESS_PLUS_ONE)
    assert tuple(tree.element(1)) == (HIGHEST_ADDRESS_PLUS_ONE, 0, 0)
    assert tree.history_root(3) == tree.root


def test_fresh_tree_updates_the_low_element_before_appending():
    # The ledger's order inside one insertion decides the root recorded at seq 2.
    reference = StateTree()
    reference.append(element_leaf(0, 0, 0))
    reference.update(0, element_leaf(0, 1, HIGHEST_ADDRESS_PLUS_ONE))
    tree = AddressTree()
    assert tree.history_root(2) == reference.root
    reference.append(element_leaf(HIGHEST_ADDRESS_PLUS_ONE, 0, 0))
    assert tree.root == reference.root


def test_fresh_tree_non_inclusion_proof():
    proof = AddressTree().non_inclusion_proof(12345)
    assert (proof.low_value, proof.low_next_index, proof.low_next_value) == (
        0,
        1,
        HIGHEST_ADDRESS_PLUS_ONE,
    )
    assert (proof.low_leaf_index, proof.root_seq, proof.root_index) == (0, 3, 3)
    assert proof.root.hex() == FRESH_ROOT
    assert len(proof.path) == HEIGHT
    assert verify_non_inclusion(proof)


def test_insert_then_prove_new_values():
    tree = AddressTree()
    values = random_values(12, seed=1)
    for n, value in enumerate(values):
        assert tree.insert(value) == n + 2
        assert tree.seq == 3 + 2 * (n + 1)
        assert tree.contains(value)
    assert linked_values(tree) == sorted([0, *values, HIGHEST_ADDRESS_PLUS_ONE])
    for value in [*random_values(8, seed=2), 1, HIGHEST_ADDRESS_PLUS_ONE - 1]:
        proof = tree.non_inclusion_proof(value)
        assert proof.low_value < value < proof.low_next_value
        assert verify_non_inclusion(proof)
    for value in [*values, HIGHEST_ADDRESS_PLUS_ONE]:
        with pytest.raises(AddressExistsError):
            tree.non_inclusion_proof(value)


def test_proof_goes_stale_after_insert_into_its_range():
    tree = AddressTree()
    proof = tree.non_inclusion_proof(500)
    tree.insert(400)
    assert verify_non_inclusion(proof)  # still consistent with the root it names
    assert proof.root != tree.root
    fresh = tree.non_inclusion_proof(500)
    assert (fresh.low_value, fresh.low_leaf_index) == (400, 2)
    assert verify_non_inclusion(fresh)


def test_derived_addresses_can_be_inserted():
    tree = AddressTree()
    address = derive_address(program_id=bytes(32), seeds=[b"x"], address_tree=bytes(31) + b"\x01")
    value = int.from_bytes(address, "big")
    assert verify_non_inclusion(tree.non_inclusion_proof(value))
    tree.insert(value)
    assert value in tree


@pytest.mark.parametrize("bad", [0, -1, 2**248, 2**256, True, 1.0, "5", b"\x01"])
def test_out_of_range_values_are_rejected(bad):
    tree = AddressTree()
    for operation in (
        tree.insert,
        tree.non_inclusion_proof,
        lambda v: tree.insert_many([v]),
    ):
        with pytest.raises(ValueError) as info:
            operation(bad)
        assert not isinstance(info.value, AddressExistsError)
    assert tree.root.hex() == FRESH_ROOT


def test_duplicates_raise_address_exists():
    tree = AddressTree()
    tree.insert(77)
    with pytest.raises(AddressExistsError):
        tree.insert(77)
    with pytest.raises(AddressExistsError):
        tree.insert(HIGHEST_ADDRESS_PLUS_ONE)
    root, seq = tree.root, tree.seq
    with pytest.raises(AddressExistsError):
        tree.insert_many([5, 6, 77])
    with pytest.raises(AddressExistsError):
        tree.insert_many([5, 6, 5])
    assert (tree.root, tree.seq, tree.next_index) == (root, seq, 3)
    assert not tree.contains(5)


@pytest.mark.parametrize("prefix", [0, 7])
def test_insert_many_equals_one_by_one(prefix):
    values = random_values(50, seed=prefix + 10)
    # Values packed into one gap make runs of new values between the same old ones.
    values += [1000 + i for i in (5, 3, 9, 1)]
    one_by_one, bulk = AddressTree(), AddressTree()
    for value in values[:prefix]:
        one_by_one.insert(value)
        bulk.insert(value)
    singles = [one_by_one.insert(value) for value in values[prefix:]]
    assert bulk.insert_many(values[prefix:]) == singles
    assert bulk.root == one_by_one.root
    assert bulk.seq == one_by_one.seq
    for index in range(bulk.next_index):
        assert bulk.element(index) == one_by_one.element(index)
    for value in [*random_values(5, seed=99), 1002]:
        assert bulk.non_inclusion_proof(value) == one_by_one.non_inclusion_proof(value)
    assert bulk.history_root(bulk.root_index) == bulk.root


@pytest.fixture(scope="module")
def good_proof():
    tree = AddressTree()
    tree.insert_many([100, 200, 300])
    proof = tree.non_inclusion_proof(250)
    assert verify_non_inclusion(proof)
    return proof


def _bad_sibling(proof):
    path = list(proof.path)
    path[3] = (1).to_bytes(32, "big")
    return {"path": tuple(path)}


TAMPERINGS = {
    "sibling": _bad_sibling,
    "short-path": lambda p: {"path": p.path[:-1]},
    "value-is-low": lambda p: {"value": 200},
    "value-is-next": lambda p: {"value": 300},
    "value-above-range": lambda p: {"value": 350},
    "next-value": lambda p: {"low_next_value": 400},
    "next-index": lambda p: {"low_next_index": 1},
    "leaf-index": lambda p: {"low_leaf_index": p.low_leaf_index + 1},
    "root": lambda p: {"root": bytes(32)},
    "root-type": lambda p: {"root": "not bytes"},
    "negative-low": lambda p: {"low_value": -1},
    "path-above-modulus": lambda p: {"path": (b"\xff" * 32,) * HEIGHT},
}


@pytest.mark.parametrize("tampering", TAMPERINGS)
def test_tampered_proofs_do_not_verify(good_proof, tampering):
    bad = dataclasses.replace(good_proof, **TAMPERINGS[tampering](good_proof))
    assert verify_non_inclusion(bad) is False


# -- elements and seq as a ledger read from the chain gives them -----------------------------------

def test_write_elements_as_an_insertion_equals_insert():
    """The two elements an insertion writes, given with their seq, make the tree `insert` makes."""
    value = random_values(1, seed=30)[0]
    inserted = AddressTree()
    inserted.insert(value)
    tree = AddressTree()
    assert tree.write_elements([(0, (0, 2, value)), (2, (value, 1, HIGHEST_ADDRESS_PLUS_ONE))], seq=5) == 5
    assert (tree.root, tree.seq, tree.next_index) == (inserted.root, inserted.seq, inserted.next_index)
    assert [tree.element(i) for i in range(3)] == [inserted.element(i) for i in range(3)]
    assert value in tree and linked_values(tree) == [0, value, HIGHEST_ADDRESS_PLUS_ONE]
    other = value + 1 if value + 1 < HIGHEST_ADDRESS_PLUS_ONE else value - 1
    proof = tree.non_inclusion_proof(other)
    assert proof == inserted.non_inclusion_proof(other) and verify_non_inclusion(proof)


def test_write_elements_leaves_holes_that_hold_no_value():
    value = random_values(1, seed=31)[0]
    tree = AddressTree()
    tree.write_elements([(5, (value, 1, HIGHEST_ADDRESS_PLUS_ONE))], seq=40)
    reference = StateTree()
    reference.append_many([tree.leaf(0), tree.leaf(1), bytes(32), bytes(32), bytes(32),
                           element_leaf(value, 1, HIGHEST_ADDRESS_PLUS_ONE)])
    assert (tree.root, tree.seq, tree.next_index) == (reference.root, 40, 6)
    assert tuple(tree.element(3)) == (0, 0, 0) and value in tree
    tree.write_elements([(3, (value + 1, 0, 0))], seq=41)  # a hole written later is an element like any
    assert value + 1 in tree and tree.leaf(3) == element_leaf(value + 1, 0, 0)


def test_write_elements_a_later_element_at_an_index_replaces_the_earlier():
    first, second = random_values(2, seed=32)
    tree = AddressTree()
    tree.write_elements([(2, (first, 1, HIGHEST_ADDRESS_PLUS_ONE)), (2, (second, 1, HIGHEST_ADDRESS_PLUS_ONE))], seq=6)
    assert second in tree and first not in tree
    assert tree.leaf(2) == element_leaf(second, 1, HIGHEST_ADDRESS_PLUS_ONE)
    tree.write_elements([(3, (first, 0, 0))], seq=7)  # `first` is free again: another index may hold it
    assert first in tree


@pytest.mark.parametrize(("elements", "error"), [
    ([(2, (7, 0, 0)), (3, (7, 0, 0))], AddressExistsError),  # one value at two indices
    ([(4, (HIGHEST_ADDRESS_PLUS_ONE, 0, 0))], AddressExistsError),  # held by element 1 already
    ([(2, (2**248, 0, 0))], ValueError),
    ([(2, (7, 1 << HEIGHT, 0))], ValueError),
    ([(2, (7, 0, -1))], ValueError),
    ([(1 << HEIGHT, (7, 0, 0))], IndexError),
], ids=["twice", "taken", "value", "next-index", "next-value", "index"])
def test_write_elements_rejects_without_change(elements, error):
    tree = AddressTree()
    tree.insert(99)
    before = (tree.root, tree.seq, tree.next_index, [tree.element(i) for i in range(tree.next_index)])
    with pytest.raises(error):
        tree.write_elements([(0, (0, 2, 99)), *elements], seq=50)
    assert (tree.root, tree.seq, tree.next_index, [tree.element(i) for i in range(tree.next_index)]) == before
    assert 7 not in tree and 99 in tree
    assert verify_non_inclusion(tree.non_inclusion_proof(7))
