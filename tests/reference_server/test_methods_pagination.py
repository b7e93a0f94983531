"""Every paginated method: walks at several limits give the unpaged list, once each, in order."""

from __future__ import annotations

import json
from typing import Any

import pytest
from csi_conformance.groundwork.base58 import b58decode, b58encode
from csi_conformance.reference_server.errors import INVALID_PARAMS, RpcError
from csi_conformance.reference_server.generate import generate_scenario
from csi_conformance.reference_server.ledger import Ledger
from csi_conformance.reference_server.methods import call, readings
from csi_conformance.reference_server.options import ServerOptions
from csi_conformance.reference_server.pagination import encode_signature_cursor
from csi_conformance.reference_server.scenario import Scenario, open_scenario, scenario_from_document
from csi_conformance.schema import Contract

OPTIONS = ServerOptions()
CONTRACT = Contract.default()


@pytest.fixture(scope="module")
def default() -> Scenario:
    return open_scenario("default")


@pytest.fixture(scope="module")
def generated() -> Scenario:
    return scenario_from_document(generate_scenario(accounts=400, seed=5))


def ask(ledger: Ledger, method: str, params: Any) -> Any:
    result = call(ledger, method, params, OPTIONS)
    assert CONTRACT.result_validator(method, readings(CONTRACT, OPTIONS)).violations(result) == []
    return result["value"]


def walk(ledger: Ledger, method: str, params: dict, limit: int) -> list:
    """Follow cursors to the end; a short page has a null cursor, a full page a cursor."""
    pagination = CONTRACT.method(method).pagination
    items: list = []
    cursor = None
    for _ in range(10_000):
        value = ask(ledger, method, {**params, "limit": limit, "cursor": cursor})
        page, cursor = value[pagination.items], value[pagination.cursor]
        assert len(page) <= limit
        assert (cursor is None) == (len(page) < limit)
        items += page
        if cursor is None:
            return items
    raise AssertionError("pagination never ended")


def identity(item: dict) -> str:
    return json.dumps(item.get("account", item).get("hash") or item.get("signature") or item.get("mint"))


def owner_with_most(scenario: Scenario, index: str) -> str:
    ledger = scenario.ledger
    group = max(getattr(ledger, index).groups(), key=lambda g: len(getattr(ledger, index).keys(g)))
    return b58encode(group)


CASES = [
    ("getCompressedAccountsByOwner", lambda s: {"owner": b58encode(s.keys["counter"])}),
    ("getCompressedTokenAccountsByOwner", lambda s: {"owner": b58encode(s.keys["bob"])}),
    ("getCompressedTokenAccountsByDelegate", lambda s: {"delegate": b58encode(s.keys["dave"])}),
    ("getCompressedTokenBalancesByOwner", lambda s: {"owner": b58encode(s.keys["bob"])}),
    ("getCompressionSignaturesForAddress",
     lambda s: {"address": b58encode(s.ledger.account(s.labels["r1b"]).address)}),
    ("getCompressionSignaturesForOwner", lambda s: {"owner": b58encode(s.keys["counter"])}),
    ("getCompressionSignaturesForTokenOwner", lambda s: {"owner": b58encode(s.keys["bob"])}),
    ("getLatestCompressionSignatures", lambda s: {}),
]


def test_every_paginated_method_with_a_cursor_is_walked(contract) -> None:
    paged = {m.name for m in contract.methods.values() if m.pagination and m.pagination.cursor_shown}
    assert {name for name, _ in CASES} == paged


@pytest.mark.parametrize("method,make", CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("limit", [1, 2, 3, 5, 12, 13])
def test_walks_union_to_the_unpaged_list(default: Scenario, method: str, make, limit: int) -> None:
    pagination = CONTRACT.method(method).pagination
    whole = ask(default.ledger, method, make(default))[pagination.items]
    assert len(whole) >= 2
    walked = walk(default.ledger, method, make(default), limit)
    assert walked == whole
    assert len({identity(item) for item in walked}) == len(walked)


@pytest.mark.parametrize("method,index,param", [
    ("getCompressedAccountsByOwner", "by_owner", "owner"),
    ("getCompressedTokenAccountsByOwner", "tokens_by_owner", "owner"),
    ("getCompressedTokenAccountsByDelegate", "tokens_by_delegate", "delegate"),
    ("getCompressionSignaturesForOwner", "signatures_by_owner", "owner"),
])
@pytest.mark.parametrize("pages", [2, 3])
def test_walks_over_a_generated_ledger(generated: Scenario, method: str, index: str, param: str, pages: int) -> None:
    params = {param: owner_with_most(generated, index)}
    whole = ask(generated.ledger, method, params)[CONTRACT.method(method).pagination.items]
    assert len(whole) >= 4
    assert walk(generated.ledger, method, params, -(-len(whole) // pages)) == whole


def test_latest_signatures_over_a_generated_ledger(generated: Scenario) -> None:
    whole = ask(generated.ledger, "getLatestCompressionSignatures", {})["items"]
    assert len(whole) == sum(tx.error is None for tx in generated.ledger.transactions.values())
    assert walk(generated.ledger, "getLatestCompressionSignatures", {}, 50) == whole


def test_a_full_last_page_is_followed_by_an_empty_page(default: Scenario) -> None:
    owner = b58encode(default.keys["counter"])
    first = ask(default.ledger, "getCompressedAccountsByOwner", {"owner": owner, "limit": 12})
    assert len(first["items"]) == 12 and first["cursor"] is not None
    assert first["cursor"] == first["items"][-1]["hash"]
    after = ask(default.ledger, "getCompressedAccountsByOwner", {"owner": owner, "cursor": first["cursor"]})
    assert after == {"items": [], "cursor": None}


def test_orders_are_the_observed_ones(default: Scenario) -> None:
    ledger = default.ledger
    hashes = [b58decode(i["hash"]) for i in ask(ledger, "getCompressedAccountsByOwner",
                                                 {"owner": b58encode(default.keys["counter"])})["items"]]
    assert hashes == sorted(hashes)
    tokens = ask(ledger, "getCompressedTokenAccountsByOwner", {"owner": b58encode(default.keys["bob"])})["items"]
    keys = [b58decode(i["tokenData"]["mint"]) + b58decode(i["account"]["hash"]) for i in tokens]
    assert keys == sorted(keys)
    items = ask(ledger, "getLatestNonVotingSignatures", {})["items"]
    order = [(i["slot"], b58decode(i["signature"])) for i in items]
    assert order == sorted(order, reverse=True)


def test_non_voting_signatures_page_without_a_cursor_in_the_answer(default: Scenario) -> None:
    ledger = default.ledger
    whole = ask(ledger, "getLatestNonVotingSignatures", {})
    assert "cursor" not in whole
    first = ask(ledger, "getLatestNonVotingSignatures", {"limit": 4})["items"]
    cursor = encode_signature_cursor((first[-1]["slot"], b58decode(first[-1]["signature"])))
    second = ask(ledger, "getLatestNonVotingSignatures", {"limit": 4, "cursor": cursor})["items"]
    assert first + second == whole["items"][:8]


@pytest.mark.parametrize("method,make", CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("bad", [{"limit": 1001}, {"cursor": "0OIl"}, {"cursor": b58encode(bytes(5))}])
def test_bad_limits_and_cursors_are_invalid_params(default: Scenario, method, make, bad) -> None:
    with pytest.raises(RpcError) as caught:
        call(default.ledger, method, {**make(default), **bad}, OPTIONS)
    assert caught.value.code == INVALID_PARAMS


@pytest.mark.parametrize("method,make", CASES, ids=[c[0] for c in CASES])
def test_the_empty_ledger_answers_empty_pages(method, make) -> None:
    empty = open_scenario("empty")
    default = open_scenario("default")
    value = ask(empty.ledger, method, make(default))
    pagination = CONTRACT.method(method).pagination
    assert value == {pagination.items: [], pagination.cursor: None}
