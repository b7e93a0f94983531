"""A validity proof read in either answer form, and judged against what was asked."""

from __future__ import annotations

from csi_conformance.groundwork.base58 import b58encode
from csi_conformance.harness.verify.validity import (
    EMPTY_STATE_ROOT,
    Expected,
    element_problems,
    elements_of,
    root_agreement,
)

TREE, OTHER = (b58encode(bytes([0, n]) + bytes(30)) for n in (7, 8))


def _hash(n: int) -> str:
    return b58encode(n.to_bytes(32, "big"))


WIRE = {"compressedProof": None, "roots": [_hash(11), _hash(11)], "rootIndices": [5, 5], "leafIndices": [3, 4],
        "leaves": [_hash(21), _hash(22)], "merkleTrees": [TREE, TREE]}
SPEC = {"compressedProof": None, "roots": [11, 11], "rootIndices": [5, 5], "leafIndices": [3, 4], "leaves": [21, 22],
        "treeInfos": [{"tree": TREE}, {}], "proveByIndices": [False, False]}
ASKED = [Expected("account", _hash(21), 21, 3, TREE), Expected("account", _hash(22), 22, 4, TREE)]


def test_both_forms_read_to_the_same_values() -> None:
    wire, problems = elements_of(WIRE, 2)
    spec, more = elements_of(SPEC, 2)
    assert problems == more == []
    assert [(e.root, e.leaf, e.leaf_index, e.root_index) for e in wire] == [(11, 21, 3, 5), (11, 22, 4, 5)]
    assert [(e.root, e.leaf, e.leaf_index, e.root_index) for e in spec] == [(11, 21, 3, 5), (11, 22, 4, 5)]
    assert [e.tree for e in spec] == [TREE, None]  # a treeInfos element naming no tree is not compared
    assert element_problems(wire, ASKED) == element_problems(spec, ASKED) == []


def test_lengths_must_agree_with_what_was_asked() -> None:
    _, problems = elements_of({**WIRE, "leafIndices": [3]}, 2)
    assert [(p.title, p.expected, p.received) for p in problems] == [("Proof lengths disagree", {"leafIndices": 2},
                                                                      {"leafIndices": 1})]
    _, problems = elements_of({k: v for k, v in SPEC.items() if k != "proveByIndices"} | {"proveByIndices": []}, 2)
    assert problems[0].received == {"proveByIndices": 0}


def test_each_element_is_judged_in_the_spec_form_too() -> None:
    elements, _ = elements_of({**SPEC, "leafIndices": [4, 3], "rootIndices": [999999, 5],
                               "roots": [EMPTY_STATE_ROOT, 11]}, 2)
    titles = [p.title for p in element_problems(elements, ASKED)]
    assert titles == ["Proof leaf index wrong", "Root index outside the root history",
                      "Empty-tree root for a live account", "Proof leaf index wrong"]


def test_one_tree_has_one_root_at_one_slot() -> None:
    elements, _ = elements_of({**WIRE, "roots": [_hash(11), _hash(12)]}, 2)
    known: dict = {}
    assert [p.title for p in root_agreement(elements, known)] == ["One tree with two roots at one slot"]
    again, _ = elements_of({**WIRE, "merkleTrees": [OTHER, TREE], "roots": [_hash(13), _hash(11)]}, 2)
    assert root_agreement(again, known) == []  # the same tree's root as before; another tree's first root


def test_an_address_part_is_the_address_the_low_index_and_the_address_root() -> None:
    elements, _ = elements_of({**WIRE, "roots": [_hash(11), _hash(30)], "rootIndices": [5, 7]}, 2)
    address = Expected("address", _hash(22), 22, 4, TREE, root=31, root_index=8)
    titles = [p.title for p in element_problems(elements, [ASKED[0], address])]
    assert titles == ["Address root is not the address tree's", "Address root index wrong"]
