"""What the onchain checks read from an answer, rule by rule, on values made here: a served root against a
root history, and what of a validity proof a transaction can carry. Hostile values are problems, never
exceptions."""

from __future__ import annotations

from typing import Any

import pytest
from csi_conformance.groundwork.base58 import b58encode
from csi_conformance.harness.checks.onchain.plan import Usable, chain_of, transaction_parts
from csi_conformance.harness.checks.onchain.roots import Served, address_roots, root_problems, validity_roots
from csi_conformance.harness.core.failures import NotApplicable
from csi_conformance.harness.verify.validity import Problem
from csi_conformance.ledger_chain import RootHistory
from solders.pubkey import Pubkey

TREE = str(Pubkey.new_unique())
ROOTS = tuple(bytes([0, i + 1]) + bytes(30) for i in range(5)) + (bytes(32),) * 5
"""A history of 10 slots, 5 written (sequence numbers 0..4): the newest root is at index 4."""


class OneTree:
    def get(self, tree: str) -> RootHistory:
        assert tree == TREE
        return RootHistory(Pubkey.from_string(TREE), 4, ROOTS)


def served(root: Any, index: Any, *, by_seq: bool = False, named: Any = TREE) -> Served:
    return Served(TREE, named, root, index, by_seq, "$.root", "$.index", "$.tree")


def titles(item: Served) -> list[tuple[str, Any, Any]]:
    return [(p.title, p.expected, p.received) for p in root_problems(OneTree(), item)]


def test_a_root_at_its_index_is_right_in_either_form() -> None:
    assert titles(served(b58encode(ROOTS[3]), 3)) == []
    assert titles(served(int.from_bytes(ROOTS[3], "big"), 3)) == []
    assert titles(served(b58encode(ROOTS[4]), 14, by_seq=True)) == []  # rootSeq 14 wraps to index 4


def test_a_root_elsewhere_in_the_history_names_the_index_where_it_is() -> None:
    assert titles(served(b58encode(ROOTS[3]), 2)) == [("Root index names another on-chain root", 3, 2)]
    assert titles(served(b58encode(ROOTS[4]), 3, by_seq=True)) == [("Root index names another on-chain root", 4, 3)]
    assert titles(served(b58encode(ROOTS[3]), 5)) == [("Root index names another on-chain root", 3, 5)]


def test_a_root_never_on_chain_shows_the_root_the_chain_holds_there() -> None:
    other = b58encode(bytes([9]) + bytes(31))
    assert titles(served(other, 1)) == [("Root never on-chain", b58encode(ROOTS[1]), other)]
    [(title, expected, _)] = titles(served(other, 7))  # nothing written at 7 yet: the rule in words
    assert title == "Root never on-chain" and "at most 4" in expected


@pytest.mark.parametrize(("item", "title"), [
    (served("not base58!", 1), "Root unreadable"),
    (served(2**256, 1), "Root unreadable"),
    (served(b58encode(ROOTS[1]), "1"), "Root index unreadable"),
    (served(b58encode(ROOTS[1]), True), "Root index unreadable"),
    (served(b58encode(ROOTS[1]), 10), "Root index outside the on-chain root history"),
])
def test_what_cannot_be_looked_up_is_a_problem(item: Served, title: str) -> None:
    assert [t for t, _, _ in titles(item)] == [title]


def test_a_root_of_another_tree_is_named() -> None:
    other = str(Pubkey.new_unique())
    assert titles(served(b58encode(ROOTS[1]), 1, named=other)) == [("Tree is not the element's on-chain tree",
                                                                     TREE, other)]


def test_answers_are_read_into_served_roots_or_a_problem() -> None:
    value = {"roots": [b58encode(ROOTS[4])], "rootIndices": [4], "leaves": [b58encode(ROOTS[0])],
             "leafIndices": [0], "merkleTrees": [TREE]}
    (root,) = validity_roots(value, (TREE,))
    assert (root.root, root.index, root.by_seq, root.index_path) == (value["roots"][0], 4, False,
                                                                     "$.result.value.rootIndices[0]")
    assert isinstance(validity_roots({**value, "roots": []}, (TREE,)), Problem)
    (address,) = address_roots([{"root": "r", "rootSeq": 14, "merkleTree": TREE}], 1, TREE)
    assert (address.index, address.by_seq, address.root_path) == (14, True, "$.result.value[0].root")
    assert isinstance(address_roots([{"root": "r"}, "x"], 2, TREE), Problem)
    assert isinstance(address_roots({"value": []}, 1, TREE), Problem)


PROOF = {"a": [1] * 32, "b": [2] * 64, "c": [3] * 32}


@pytest.mark.parametrize(("value", "title"), [
    (None, "No validity proof"),
    ({"compressedProof": {"a": [1] * 31, "b": [2] * 64, "c": [3] * 32}, "rootIndices": [1]},
     "Proof cannot be put into a transaction"),
    ({"compressedProof": {**PROOF, "c": [256] + [3] * 31}, "rootIndices": [1]},
     "Proof cannot be put into a transaction"),
    ({"compressedProof": "0xabc", "rootIndices": [1]}, "Proof cannot be put into a transaction"),
    ({"compressedProof": PROOF, "rootIndices": [1, 2]}, "Root indices cannot be put into a transaction"),
    ({"compressedProof": PROOF, "rootIndices": [65536]}, "Root indices cannot be put into a transaction"),
    ({"compressedProof": PROOF, "rootIndices": [1.0]}, "Root indices cannot be put into a transaction"),
])
def test_what_a_transaction_cannot_carry_is_a_problem(value: Any, title: str) -> None:
    found = transaction_parts(value, 1)
    assert isinstance(found, Problem) and found.title == title and found.clauses == ("ledger-P4",)


def test_a_proof_a_transaction_can_carry_is_read_as_is() -> None:
    value = {"compressedProof": {**PROOF, "extra": 1}, "rootIndices": [65535]}
    assert transaction_parts(value, 1) == Usable(PROOF, [65535])


def test_a_chain_of_todays_programs_is_not_put_before_the_programs_and_says_why() -> None:
    """The published 0.28.3 verifier refuses the installed prover's v1 proofs (6043), so judging them would fail
    every target; with the June 2025 verifying keys patched in (the default chain) it takes them."""
    class _Chain:
        def __init__(self, today: bool, verifies_v1_proofs: bool) -> None:
            self.today, self.verifies_v1_proofs = today, verifies_v1_proofs

    class _Facts:
        def __init__(self, chain: _Chain | None) -> None:
            self.chain = chain

    class _Run:
        def __init__(self, chain: _Chain | None) -> None:
            self.facts = _Facts(chain)

    v1, patched = _Chain(today=False, verifies_v1_proofs=True), _Chain(today=True, verifies_v1_proofs=True)
    assert chain_of(_Run(v1)) is v1  # type: ignore[arg-type]
    assert chain_of(_Run(patched)) is patched  # type: ignore[arg-type]
    with pytest.raises(NotApplicable, match=r"today's programs \(0\.28\.3\) as published.*Custom 6043.*"
                                            r"June 2025 verifying keys.*--programs 0\.18\.0"):
        chain_of(_Run(_Chain(today=True, verifies_v1_proofs=False)))  # type: ignore[arg-type]
    with pytest.raises(NotApplicable, match="no --chain given"):
        chain_of(_Run(None))  # type: ignore[arg-type]
