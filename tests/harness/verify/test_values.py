"""Ranges of answer values and token bytes read back, on hand-made answers."""

from __future__ import annotations

import base64

from csi_conformance.groundwork.base58 import b58encode
from csi_conformance.harness.verify.values import range_problems, token_bytes_problems
from csi_conformance.ledger_crypto import FIELD_MODULUS, TokenDataFields, encode_token_data

MINT, OWNER, DELEGATE = (b58encode(bytes([0, n]) + bytes(30)) for n in (1, 2, 3))
FF = b58encode(b"\xff" * 32)


def _account(**changes) -> dict:
    account = {"hash": b58encode(bytes(31) + b"\x05"), "owner": OWNER, "tree": MINT, "leafIndex": 3, "lamports": 7,
               "slotCreated": 9, "seq": 4, "address": None,
               "data": {"data": "", "discriminator": 2, "dataHash": b58encode(bytes(31) + b"\x01")}}
    account.update(changes)
    return account


def test_values_in_range_have_no_problem_and_are_counted() -> None:
    seen, problems = range_problems({"context": {"slot": 2**64 - 1}, "value": {"items": [_account()]}})
    assert problems == [] and seen == 8  # a null address is no value


def test_each_bound_is_named_with_its_path() -> None:
    account = _account(lamports=2**64, leafIndex=2**32, data={"data": "", "discriminator": 2**64,
                                                               "dataHash": FF})
    _, problems = range_problems({"value": {"items": [account]}})
    assert [(p.path, p.value, p.bound) for p in problems] == [
        ("$.result.value.items[0].lamports", 2**64, "a u64, in [0, 18446744073709551615]"),
        ("$.result.value.items[0].leafIndex", 2**32, "a u32, in [0, 4294967295]"),
        ("$.result.value.items[0].data.discriminator", 2**64, "a u64, in [0, 18446744073709551615]"),
        ("$.result.value.items[0].data.dataHash", FF, f"a BN254 field element (below r = {FIELD_MODULUS})")]


def test_a_bare_integer_result_is_a_u64() -> None:
    """getIndexerSlot answers its slot bare: a u64 like every slot."""
    assert range_problems(2**64 - 1) == (1, [])
    seen, problems = range_problems(2**64)
    assert seen == 1 and [(p.path, p.bound) for p in problems] == [("$.result", "a u64, in [0, 18446744073709551615]")]


def test_proof_values_in_either_reading_are_bounded() -> None:
    proof = {"roots": [FIELD_MODULUS, b58encode((FIELD_MODULUS - 1).to_bytes(32, "big"))], "leaves": [1, 2],
             "leafIndices": [0, 1], "rootIndices": [0, -1]}
    _, problems = range_problems({"value": proof})
    assert [p.path for p in problems] == ["$.result.value.roots[0]", "$.result.value.rootIndices[1]"]


def _token_account(fields: TokenDataFields) -> dict:
    return _account(data={"data": base64.b64encode(encode_token_data(fields)).decode(), "discriminator": 2,
                          "dataHash": b58encode(bytes(32))})


def test_token_bytes_agree_with_token_data_in_either_state_reading() -> None:
    fields = TokenDataFields(bytes([0, 1]) + bytes(30), bytes([0, 2]) + bytes(30), 2**64 - 1, None, "frozen", b"\x07")
    token = {"mint": MINT, "owner": OWNER, "amount": 2**64 - 1, "delegate": None, "state": "frozen",
             "tlv": base64.b64encode(b"\x07").decode()}
    assert token_bytes_problems(_token_account(fields), token).agrees
    assert token_bytes_problems(_token_account(fields), {**token, "state": 1}).agrees


def test_token_bytes_that_say_otherwise_are_named() -> None:
    fields = TokenDataFields(bytes([0, 1]) + bytes(30), bytes([0, 2]) + bytes(30), 5, bytes([0, 3]) + bytes(30))
    token = {"mint": MINT, "owner": OWNER, "amount": 6, "delegate": None, "state": "initialized", "tlv": "AQ=="}
    found = token_bytes_problems(_token_account(fields), token)
    assert (found.held, found.given) == ({"amount": 5, "delegate": DELEGATE, "tlv": None},
                                         {"amount": 6, "delegate": None, "tlv": "AQ=="})
    unreadable = token_bytes_problems(_account(data={"data": "AAAA", "discriminator": 2, "dataHash": MINT}), token)
    assert unreadable.unreadable.startswith("token data truncated") and not unreadable.agrees
