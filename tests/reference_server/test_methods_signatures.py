"""Signature lists and getTransactionWithCompressionInfo over the default scenario."""

from __future__ import annotations

import pytest
from csi_conformance.groundwork.base58 import b58encode
from csi_conformance.reference_server.scenario import Scenario, derive_signature

from .support import ask


def sig(index: int) -> str:
    """Signature of the default scenario's transaction ``index`` (see default.yaml)."""
    return b58encode(derive_signature("csi-default", index))


def signatures(items: list[dict]) -> list[str]:
    return [i["signature"] for i in items]


def newest_first(items: list[dict]) -> bool:
    keys = [(i["slot"], i["signature"]) for i in items]
    return [k[0] for k in keys] == sorted((k[0] for k in keys), reverse=True)


def address_of(s: Scenario, name: str) -> str:
    return b58encode(s.ledger.account(s.labels[name]).address)


FAILED = {2, 8}


def test_owner_signatures_include_opening_and_closing_transactions(s: Scenario) -> None:
    items = ask(s, "getCompressionSignaturesForOwner", {"owner": b58encode(s.keys["counter"])})["items"]
    # counter accounts were opened by 0, 3, 5, 6, 7, 10 and closed by 5 (c2) and 10 (c3)
    assert set(signatures(items)) == {sig(i) for i in (0, 3, 5, 6, 7, 10)}
    assert newest_first(items)
    assert items[0] == {"signature": sig(10), "slot": 1008, "blockTime": s.ledger.transactions[
        derive_signature("csi-default", 10)].block_time}


@pytest.mark.parametrize("name,expected", [("r1b", {1, 9}), ("c3", {0, 10}), ("c8", {3})])
def test_address_signatures(s: Scenario, name: str, expected: set[int]) -> None:
    items = ask(s, "getCompressionSignaturesForAddress", {"address": address_of(s, name)})["items"]
    assert signatures(items) == [sig(i) for i in sorted(expected, reverse=True)]


def test_token_owner_signatures(s: Scenario) -> None:
    items = ask(s, "getCompressionSignaturesForTokenOwner", {"owner": b58encode(s.keys["bob"])})["items"]
    assert signatures(items) == [sig(5), sig(4), sig(3)]
    alice = ask(s, "getCompressionSignaturesForTokenOwner", {"owner": b58encode(s.keys["alice"])})["items"]
    assert signatures(alice) == [sig(9), sig(4), sig(3)]


def test_lists_of_nothing_are_empty(s: Scenario) -> None:
    idle = b58encode(s.keys["idle"])
    for method, param in (("getCompressionSignaturesForOwner", "owner"),
                          ("getCompressionSignaturesForTokenOwner", "owner"),
                          ("getCompressionSignaturesForAddress", "address")):
        assert ask(s, method, {param: idle}) == {"items": [], "cursor": None}


def test_latest_signatures_skip_failed_transactions(s: Scenario) -> None:
    items = ask(s, "getLatestCompressionSignatures", {})["items"]
    assert set(signatures(items)) == {sig(i) for i in range(11) if i not in FAILED}
    assert newest_first(items)
    assert all("error" not in i for i in items)


def test_non_voting_signatures_list_every_transaction_with_its_error(s: Scenario) -> None:
    value = ask(s, "getLatestNonVotingSignatures", {})
    assert "cursor" not in value
    items = value["items"]
    assert set(signatures(items)) == {sig(i) for i in range(11)}
    assert newest_first(items)
    errors = {i["signature"]: i["error"] for i in items}
    assert errors[sig(2)] == "InstructionError(0, Custom(6001))"
    assert errors[sig(8)] == "InstructionError(1, Custom(1))"
    assert all(errors[sig(i)] is None for i in range(11) if i not in FAILED)


def test_transaction_with_compression_info(s: Scenario) -> None:
    result = ask(s, "getTransactionWithCompressionInfo", {"signature": sig(5)})
    info = result["compressionInfo"]
    names = {b58encode(h): n for n, h in s.labels.items()}
    assert [names[i["account"]["hash"]] for i in info["closedAccounts"]] == ["c2", "t3"]
    assert [names[i["account"]["hash"]] for i in info["openedAccounts"]] == ["c9", "t7", "t8"]
    assert info["closedAccounts"][0]["optionalTokenData"] is None
    assert info["closedAccounts"][1]["optionalTokenData"]["amount"] == 250
    assert info["openedAccounts"][1]["optionalTokenData"]["owner"] == b58encode(s.keys["bob"])
    opened = info["openedAccounts"][0]["account"]
    assert ask(s, "getCompressedAccount", {"hash": opened["hash"]}) == opened
    tx = result["transaction"]
    assert tx["transaction"]["signatures"] == [sig(5)] and tx["slot"] == 1004 and tx["meta"]["err"] is None


@pytest.mark.parametrize("signature", [sig(2), sig(8), sig(99)])
def test_failed_and_unknown_transactions_answer_null(s: Scenario, signature: str) -> None:
    assert ask(s, "getTransactionWithCompressionInfo", {"signature": signature}) is None
