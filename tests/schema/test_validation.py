"""The contract rejects what the spec forbids, and keeps big integers exact."""

from __future__ import annotations

import copy

import pytest
from csi_conformance.schema import Contract
from csi_conformance.schema.validation import decoded_length

ACCOUNT = {
    "hash": "2Wu2sJdGyDF84RW4zkzxEVCEDD8ZMJzuj4LVZQKhGCs3", "lamports": 2**64 - 1, "leafIndex": 3,
    "owner": "cTokenmWW8bLPjZEBAUgYy3zKxQZW6VKi7bqNFEVv3m", "slotCreated": 7,
    "tree": "smt1NamzXdq4AMqS2fS2F1i5KTYPZRhoHgWx38d8WsT", "seq": 4, "address": None, "data": None,
}
TOKEN = {"amount": 2**63 + 5, "mint": "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",
         "owner": "3bJpRkCjn6wnT1SrqtLNw7F7BRbh2XVZpexvt8ViXmB6", "state": "frozen", "delegate": None, "tlv": None}
PAGE = {"context": {"slot": 12}, "value": {"items": [{"account": ACCOUNT, "tokenData": TOKEN}], "cursor": None}}


def _broken(mutate):
    page = copy.deepcopy(PAGE)
    mutate(page)
    return page


def _token(page):
    return page["value"]["items"][0]["tokenData"]


def _account(page):
    return page["value"]["items"][0]["account"]


def test_valid_page_with_big_integers(contract: Contract) -> None:
    assert contract.result_validator("getCompressedTokenAccountsByOwner").violations(PAGE) == []


@pytest.mark.parametrize(
    ("mutate", "where"),
    [
        pytest.param(lambda p: p.pop("context"), "", id="missing context"),
        pytest.param(lambda p: p["context"].update(slot="12"), "/context/slot", id="string slot"),
        pytest.param(lambda p: _account(p).pop("leafIndex"), "/value/items/0/account", id="missing required field"),
        pytest.param(lambda p: _account(p).update(owner=ACCOUNT["owner"][:-3]), "/value/items/0/account/owner",
                     id="wrong-length base58 key"),
        pytest.param(lambda p: _account(p).update(tree="0OIl" + ACCOUNT["tree"][4:]), "/value/items/0/account/tree",
                     id="not base58"),
        pytest.param(lambda p: _token(p).update(amount=1000.0), "/value/items/0/tokenData/amount", id="float amount"),
        pytest.param(lambda p: _token(p).update(amount=10.5), "/value/items/0/tokenData/amount", id="fractional"),
        pytest.param(lambda p: _account(p).update(lamports=-1), "/value/items/0/account/lamports", id="negative"),
        pytest.param(lambda p: p["value"].pop("cursor"), "/value", id="missing cursor"),
        pytest.param(lambda p: _token(p).update(state="melted"), "/value/items/0/tokenData/state", id="unknown state"),
    ],
)
def test_contract_rejects(contract: Contract, mutate, where: str) -> None:
    violations = contract.result_validator("getCompressedTokenAccountsByOwner").violations(_broken(mutate))
    assert violations, "the broken answer must not validate"
    assert any(v.path == where for v in violations), violations


def test_signature_is_64_bytes(contract: Contract) -> None:
    validator = contract.validator("Signature")
    signature = "5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW"
    assert validator.is_valid(signature)
    assert not validator.is_valid(ACCOUNT["hash"])


def test_bn_keeps_254_bit_integers(contract: Contract) -> None:
    big = 21888242871839275222246405745257275088548364400416034343698204186575808495616
    assert contract.validator("BN").is_valid(big)
    assert not contract.validator("BN").is_valid(float(big))


def test_params_validation(contract: Contract) -> None:
    by_owner = contract.params_validator("getCompressedAccountsByOwner")
    assert by_owner.is_valid({"owner": ACCOUNT["owner"], "limit": 10})
    assert not by_owner.is_valid({"owner": ACCOUNT["owner"], "limit": 10.0})
    assert not by_owner.is_valid({"limit": 10})
    balance = contract.params_validator("getCompressedAccountBalance")
    assert not balance.is_valid({"hash": ACCOUNT["hash"], "extra": 1}), "§4.1: unknown members rejected"
    assert contract.params_validator("getMultipleNewAddressProofs").is_valid([ACCOUNT["owner"]])
    assert not contract.params_validator("getMultipleNewAddressProofs").is_valid({"addresses": []})
    assert contract.params_validator("getIndexerHealth").is_valid([])
    assert contract.params_validator("getIndexerHealth").is_valid({})
    assert not contract.params_validator("getIndexerHealth").is_valid(None), "JSON-RPC 2.0: params is structured"


def test_spec_examples_validate(contract: Contract) -> None:
    for method in contract.methods.values():
        assert method.examples, method.name
        for example in method.examples:
            assert contract.result_validator(method.name).violations(example.result) == [], example.name
            if example.params is not None:
                assert contract.params_validator(method.name).violations(example.params) == []


# -- the contract's base58 formats: the kit's one decoder, strict on whitespace ------------------

@pytest.mark.parametrize("text", ["2g ", "2g\n", "2g\t\r\n", b"2g", " 2g", "2g\u3000"])
def test_decoded_length_refuses_whitespace_and_bytes(text) -> None:
    assert decoded_length(text) is None
