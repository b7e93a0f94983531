"""The client releases named beside a method the contract lacks come from the data file, and a method no known
release calls is said to be so (the file itself is checked against the clients in test_official_client.py)."""

from __future__ import annotations

from csi_conformance.harness.proxy.callers import RELEASES, callers
from csi_conformance.harness.proxy.coverage import Reached
from csi_conformance.schema import Contract


def test_a_lacking_method_is_named_with_the_releases_known_to_call_it() -> None:
    reached = Reached(Contract.for_api("0.50.0"))
    for method in ("getValidityProofV2", "getValidityProofV2", "getCompressedAccountProof", "myAppsOwnMethod",
                   "getIndexerSlot"):
        reached.saw(method, {})
    lacking = reached.summary([])["not_in_contract"]
    assert lacking == {
        "getCompressedAccountProof": {"calls": 1, "clients": ["stateless.js 0.20.9", "stateless.js 0.23.3 (V1)"]},
        "getValidityProofV2": {"calls": 2, "clients": ["stateless.js 0.23.3 (V2, its default)"]},
        "myAppsOwnMethod": {"calls": 1, "clients": []}}
    line = next(note for note in reached.notes([]) if "contract lacks" in note)
    assert "getValidityProofV2 ×2 (called by stateless.js 0.23.3 (V2, its default))" in line
    assert "myAppsOwnMethod ×1 (no known client release calls it)" in line


def test_every_release_lists_methods_of_the_contracts_it_is_driven_against() -> None:
    known = set(Contract.for_api("photon-366a15b").methods)
    assert RELEASES and all(methods and set(methods) <= known for methods in RELEASES.values())
    assert callers("getIndexerSlot") == list(RELEASES)
