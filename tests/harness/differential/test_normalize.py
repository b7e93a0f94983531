"""normalize: each allowed difference, and each reading mapped to observed practice, on both sides alike."""

from __future__ import annotations

import copy

import pytest
from csi_conformance.groundwork.base58 import b58decode, b58encode
from csi_conformance.harness.checks.differential.normalize import ALLOWED, NORMALIZERS, READINGS, comparable, normalize
from csi_conformance.harness.judging.compare import differences
from csi_conformance.schema import Contract

HASH = "3b87PJpKvNqc91TG3Ut2u4uFGWfQEMRTStSDJow1Ewxu"
OWNER = "HXqWBGAti3PL6VGuVEjUEeTUQ1tMmHmbkovbAJBBUiGE"
TREE = "smt1NamzXdq4AMqS2fS2F1i5KTYPZRhoHgWx38d8WsT"


def _account(index: int, **members) -> dict:
    return {"hash": b58encode(bytes([index]) * 32), "lamports": 1000 * index, "leafIndex": index, "owner": OWNER,
            "slotCreated": 1000, "tree": TREE, "address": None, "data": None, "seq": index, **members}


def _token(index: int, state: object = "initialized") -> dict:
    return {"account": _account(index, owner="cTokenmWW8bLPjZEBAUgYy3zKxQZW6VKi7bqNFEVv3m"),
            "tokenData": {"amount": 2**64 - index, "mint": OWNER, "owner": OWNER, "state": state, "delegate": None,
                          "tlv": None}}


def _ok(result: object, id: object = 1) -> dict:
    return {"jsonrpc": "2.0", "id": id, "result": result}


def _state(value: object, slot: int = 1010) -> dict:
    return _ok({"context": {"slot": slot}, "value": value})


def _diff(contract: Contract, method: str, target: object, reference: object) -> list:
    return differences(normalize(contract, method, target)[0], normalize(contract, method, reference)[0])


def test_comparable_keeps_what_is_compared() -> None:
    assert comparable(_ok(5, id="x")) == {"result": 5}
    assert comparable({"jsonrpc": "2.0", "id": 1, "error": {"code": 1, "message": "m"}}) == {
        "error": {"code": 1, "message": "m"}}
    assert comparable({"error": "Internal server error"}) == {"failure": "Internal server error"}
    assert comparable("not an object") == {"other": "not an object"}


def test_error_message_is_ignored_and_the_code_is_not(contract: Contract) -> None:
    def error(code: int, message: str) -> dict:
        return {"jsonrpc": "2.0", "id": 1, "error": {"code": code, "message": message}}

    method = "getCompressedAccount"
    assert _diff(contract, method, error(-32000, "Validation Error: both"), error(-32000, "something else")) == []
    found = _diff(contract, method, error(-32602, "same"), error(-32000, "same"))
    assert [(d.path, d.target, d.reference) for d in found] == [("error.code", -32602, -32000)]
    assert "error-message" in normalize(contract, method, error(-32000, "m"))[1]


def test_context_slot_is_ignored_and_integers_stay_exact(contract: Contract) -> None:
    method = "getCompressedBalanceByOwner"
    assert _diff(contract, method, _state(2**64 + 1, slot=1012), _state(2**64 + 1, slot=1010)) == []
    found = _diff(contract, method, _state(2**64 + 1), _state(2**64))
    assert [(d.path, d.target, d.reference) for d in found] == [("result.value", 2**64 + 1, 2**64)]


def test_cursor_strings_and_item_order_are_free_in_lists(contract: Contract) -> None:
    method = "getCompressedAccountsByOwner"
    items = [_account(i) for i in range(1, 6)]
    target = _state({"items": items[::-1], "cursor": "target-cursor"})
    reference = _state({"items": items, "cursor": "reference-cursor"})
    assert _diff(contract, method, target, reference) == []
    assert {"cursor", "order"} <= set(normalize(contract, method, target)[1])
    dropped = _state({"items": items[:2] + items[3:], "cursor": None})
    assert [d.path for d in _diff(contract, method, dropped, reference)] == ["result.value.items[2]"]


def test_order_is_kept_where_it_means_something(contract: Contract) -> None:
    proofs = [{"address": b58encode(bytes([0, i]) + bytes(30)), "root": HASH} for i in range(3)]
    found = _diff(contract, "getMultipleNewAddressProofs", _ok(proofs[::-1]), _ok(proofs))
    assert found, "the proofs answer the addresses in the order asked"


def test_token_state_as_the_numeric_enumeration(contract: Contract) -> None:
    method = "getCompressedTokenAccountsByOwner"
    reference = _state({"items": [_token(1), _token(2, "frozen")], "cursor": None})
    numeric = _state({"items": [_token(1, 0), _token(2, 1)], "cursor": None})
    wrong = _state({"items": [_token(1, 1), _token(2, 1)], "cursor": None})
    assert _diff(contract, method, numeric, reference) == []
    assert "reading:token-state" in normalize(contract, method, numeric)[1]
    assert [d.target for d in _diff(contract, method, wrong, reference)] == ["frozen"]


def test_optional_members_omitted_instead_of_null(contract: Contract) -> None:
    method = "getCompressedAccount"
    reference = _state(_account(1))
    omitted = _state({k: v for k, v in _account(1).items() if k not in ("address", "data")})
    assert _diff(contract, method, omitted, reference) == []
    with_address = _state(_account(1, address=OWNER))
    assert [d.path for d in _diff(contract, method, with_address, reference)] == ["result.value.address"]


def test_transaction_readings_and_its_object(contract: Contract) -> None:
    method = "getTransactionWithCompressionInfo"
    opened = [{"account": _account(i), "optionalTokenData": None} for i in (1, 2)]
    reference = _ok({"compressionInfo": {"closedAccounts": [], "openedAccounts": opened},
                     "transaction": {"slot": 1000}})
    other = _ok({"context": {"slot": 1010}, "value": {
        "compression_info": {"closedAccounts": [], "openedAccounts": [
            {"account": item["account"], "maybeTokenData": None} for item in opened[::-1]]},
        "transaction": {"slot": 1000, "meta": {"fee": 5000}}}})
    assert _diff(contract, method, other, reference) == []
    applied = normalize(contract, method, other)[1]
    assert {"reading:transaction-context", "reading:compression-info-key", "reading:token-data-key",
            "transaction-object", "order"} <= set(applied)


def test_balance_answered_without_the_wrapper(contract: Contract) -> None:
    method = "getCompressedAccountBalance"
    bare = {"context": {"slot": 1010}, "value": 7}
    assert _diff(contract, method, bare, _state(7)) == []
    assert [d.target for d in _diff(contract, method, {"context": {"slot": 1}, "value": 8}, _state(7))] == [8]
    assert _diff(contract, "getCompressedBalanceByOwner", bare, _state(7)), "only the balance methods are bare"


def test_bn_values_as_integers_and_proof_bytes(contract: Contract) -> None:
    method = "getValidityProof"
    proof = {"compressedProof": {"a": [1] * 32, "b": [2] * 64, "c": [3] * 32}, "roots": [HASH], "rootIndices": [7],
             "leafIndices": [3], "leaves": [HASH], "merkleTrees": [TREE]}
    as_integers = copy.deepcopy(proof)
    as_integers["roots"] = [int.from_bytes(b58decode(HASH), "big")]
    as_integers["leaves"] = [int.from_bytes(b58decode(HASH), "big")]
    as_integers["compressedProof"] = {"a": [9] * 32, "b": [9] * 64, "c": [9] * 32}
    assert _diff(contract, method, _state(as_integers), _state(proof)) == []
    wrong_index = {**proof, "leafIndices": [4]}
    assert [d.path for d in _diff(contract, method, _state(wrong_index), _state(proof))] == [
        "result.value.leafIndices[0]"]


def test_signature_error_absent_on_success(contract: Contract) -> None:
    method = "getLatestNonVotingSignatures"
    item = {"signature": "5" * 64, "slot": 1000, "blockTime": 1700000400}
    assert _diff(contract, method, _state({"items": [item]}), _state({"items": [{**item, "error": None}]})) == []
    failed = _state({"items": [{**item, "error": "InstructionError"}]})
    assert _diff(contract, method, _state({"items": [item]}), failed)


def test_the_body_given_is_left_untouched(contract: Contract) -> None:
    body = _state({"items": [_account(2), _account(1)], "cursor": "c"})
    before = copy.deepcopy(body)
    normalize(contract, "getCompressedAccountsByOwner", body)
    assert body == before


def test_the_list_is_data_with_known_names_and_clauses(contract: Contract) -> None:
    names = [n.name for n in NORMALIZERS]
    assert len(names) == len(set(names)) and NORMALIZERS == READINGS + ALLOWED
    for normalizer in NORMALIZERS:
        contract.clause(normalizer.clause)
        assert normalizer.allows
    for normalizer in READINGS:
        amb = contract.ambiguity(normalizer.ambiguity)
        assert normalizer.name == f"reading:{amb.id}" and amb.observed in amb.readings
    assert all(n.ambiguity is None for n in ALLOWED)


@pytest.mark.parametrize("normalizer", NORMALIZERS, ids=lambda n: n.name)
def test_each_normalizer_leaves_an_unrelated_answer_alone(contract: Contract, normalizer) -> None:
    value = comparable(_ok("ok"))
    assert normalizer.rewrite(contract, "getIndexerHealth", value) is False
    assert value == {"result": "ok"}


def test_spec_2_10_fields_read_as_the_wire_form_and_the_values_stay(contract: Contract) -> None:
    method = "getValidityProof"
    wire = {"compressedProof": None, "roots": [HASH], "rootIndices": [7], "leafIndices": [3], "leaves": [HASH],
            "merkleTrees": [TREE]}
    spec = {**{k: v for k, v in wire.items() if k != "merkleTrees"},
            "treeInfos": [{"tree": TREE, "treeType": "state", "rootIndex": 7}], "proveByIndices": [False]}
    assert _diff(contract, method, _state(spec), _state(wire)) == []
    assert "reading:validity-proof-fields" in normalize(contract, method, _state(spec))[1]
    other_tree = {**spec, "treeInfos": [{"tree": OWNER}]}
    assert [d.path for d in _diff(contract, method, _state(other_tree), _state(wire))] == [
        "result.value.merkleTrees[0]"]
    unnamed = {**spec, "treeInfos": [{"merkle": TREE}]}
    assert {d.path.split("[")[0] for d in _diff(contract, method, _state(unnamed), _state(wire))} == {
        "result.value.treeInfos", "result.value.proveByIndices", "result.value.merkleTrees"}


def test_a_null_compressed_proof_is_left_aside_like_any_other(contract: Contract) -> None:
    proof = {"compressedProof": {"a": [1] * 32, "b": [2] * 64, "c": [3] * 32}, "roots": [HASH], "rootIndices": [7],
             "leafIndices": [3], "leaves": [HASH], "merkleTrees": [TREE]}
    assert _diff(contract, "getValidityProof", _state({**proof, "compressedProof": None}), _state(proof)) == []


def test_every_point_an_answer_can_touch_names_the_members_it_governs(contract: Contract) -> None:
    """A reading may excuse a difference only in its own members: every point of a response has them."""
    touched = {amb for method in contract.methods for amb in contract.ambiguities_in(f"{method}.response")}
    touched |= set(contract.ambiguities_in("Error"))
    governing = {amb.id for amb in contract.ambiguities.values() if amb.governs is not None}
    assert touched == governing
