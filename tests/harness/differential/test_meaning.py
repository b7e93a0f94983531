"""The differential judges meaning, not bytes: proofs by rule, readings the profile accepts, uncompared members.

Each rule is driven by the contract's data (`x-proof`, `x-not-compared`, `#/$defs/ambiguity.<id>`), and each
test also shows the rule does not hide a value: the same comparison with a wrong value still differs.
"""

from __future__ import annotations

from csi_conformance.groundwork.base58 import b58encode
from csi_conformance.harness.checks.differential.marked import proof_members, uncompared_members
from csi_conformance.harness.checks.differential.normalize import normalize
from csi_conformance.harness.checks.differential.readings import set_aside
from csi_conformance.harness.checks.differential.replay import BRIDGED
from csi_conformance.harness.core.profile import PROFILES
from csi_conformance.harness.judging.compare import differences
from csi_conformance.schema import Contract

from .test_normalize import OWNER, TREE, _account, _state

TODAY = Contract.for_api("photon-366a15b")
QUEUE = "nfq1NvQDJ2GEgnS8zt9prAe8rjjpAW1zFkrvZoBR148"
CPI = "cpi1uHzrEhBG733DoEJNgHCyRS3XmmyVNZx5fonubE4"


def _proof(seed: int) -> dict:
    return {"a": [seed] * 32, "b": [seed + 1] * 64, "c": [seed + 2] * 32}


def _diff(contract: Contract, method: str, target: object, reference: object) -> list:
    return differences(normalize(contract, method, target)[0], normalize(contract, method, reference)[0])


def _context(cpi: str | None = None) -> dict:
    return {"treeType": 1, "tree": TREE, "queue": QUEUE, "cpiContext": cpi, "nextTreeContext": None}


def _proof_v2(seed: int, root_index: int = 7, cpi: str | None = None) -> dict:
    account = {"hash": b58encode(bytes([1]) * 32), "root": b58encode(bytes([2]) * 32),
               "rootIndex": {"rootIndex": root_index, "proveByIndex": False}, "leafIndex": 3,
               "merkleContext": _context(cpi)}
    return {"compressedProof": _proof(seed), "accounts": [account], "addresses": []}


def test_the_contract_names_its_proofs_and_its_uncompared_members() -> None:
    assert proof_members(Contract.default()) == {"compressedProof"}
    assert proof_members(TODAY) == {"compressedProof"}
    assert uncompared_members(Contract.default()) == set()
    assert uncompared_members(TODAY) == {"cpiContext"}


def test_a_v2_proof_is_compared_without_its_bytes_and_with_its_values() -> None:
    method = "getValidityProofV2"
    assert _diff(TODAY, method, _state(_proof_v2(1)), _state(_proof_v2(9))) == []
    wrong = _diff(TODAY, method, _state(_proof_v2(1, root_index=8)), _state(_proof_v2(9)))
    assert [d.path for d in wrong] == ["result.value.accounts[0].rootIndex.rootIndex"]


def test_a_proof_nested_anywhere_is_a_proof() -> None:
    nested = {"items": [{"inner": {"compressedProof": _proof(1)}}]}
    other = {"items": [{"inner": {"compressedProof": _proof(5)}}]}
    assert _diff(TODAY, "getQueueInfo", _state(nested), _state(other)) == []


def test_cpi_context_is_not_compared_but_the_tree_is() -> None:
    method = "getValidityProofV2"
    assert _diff(TODAY, method, _state(_proof_v2(1, cpi=CPI)), _state(_proof_v2(1))) == []
    moved = _proof_v2(1, cpi=CPI)
    moved["accounts"][0]["merkleContext"]["tree"] = OWNER
    assert [d.path for d in _diff(TODAY, method, _state(moved), _state(_proof_v2(1)))] == [
        "result.value.accounts[0].merkleContext.tree"]


def _set_aside(contract: Contract, method: str, target: dict, reference: dict, profile: str = "spec"):
    t_norm, r_norm = normalize(contract, method, target)[0], normalize(contract, method, reference)[0]
    readings = PROFILES[profile].readings(contract)
    return set_aside(contract, method, readings, differences(t_norm, r_norm), BRIDGED)


def test_an_integer_seq_where_the_reference_reads_null_is_a_reading_not_a_value() -> None:
    contract, method = Contract.default(), "getCompressedAccount"
    for profile in ("spec", "strict", "lenient"):
        kept, points = _set_aside(contract, method, _state(_account(3, seq=41)), _state(_account(3, seq=None)),
                                  profile)
        assert (kept, points) == ([], {"batched-seq"}), profile


def test_a_seq_of_another_value_in_the_same_reading_is_still_a_difference() -> None:
    contract, method = Contract.default(), "getCompressedAccount"
    kept, points = _set_aside(contract, method, _state(_account(3, seq=41)), _state(_account(3, seq=40)))
    assert [d.path for d in kept] == ["result.value.seq"] and points == set()
    kept, _ = _set_aside(contract, method, _state(_account(3, seq="41")), _state(_account(3, seq=None)))
    assert [d.path for d in kept] == ["result.value.seq"], "a string follows no reading: a difference"


def test_a_point_a_normalizer_bridges_keeps_its_values() -> None:
    """optional-null has a normalizer: a real address against the reference's null is a wrong value."""
    contract, method = Contract.default(), "getCompressedAccount"
    kept, points = _set_aside(contract, method, _state(_account(3, address=OWNER)), _state(_account(3)))
    assert [d.path for d in kept] == ["result.value.address"] and points == set()
