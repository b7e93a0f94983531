"""getCompressedAccount, the balance methods and getCompressedAccountsByOwner over the default scenario."""

from __future__ import annotations

import base64

import pytest
from csi_conformance.groundwork.base58 import b58decode, b58encode
from csi_conformance.ledger_crypto import account_hash, hash_to_field
from csi_conformance.reference_server.errors import INVALID_PARAMS, SERVER_ERROR, RpcError
from csi_conformance.reference_server.methods import call
from csi_conformance.reference_server.scenario import Scenario

from .support import OPTIONS, ask


def wire_account_hash(item: dict) -> bytes:
    """The hash a CompressedAccount's wire fields give (ledger-facts.md)."""
    data = item["data"]
    return account_hash(
        owner=b58decode(item["owner"]), leaf_index=item["leafIndex"], tree=b58decode(item["tree"]),
        lamports=item["lamports"], address=None if item["address"] is None else b58decode(item["address"]),
        discriminator=None if data is None else data["discriminator"],
        data_hash=None if data is None else b58decode(data["dataHash"]),
    )


def label(s: Scenario, name: str) -> str:
    return b58encode(s.labels[name])


def owner_items(s: Scenario, owner: str, **params) -> list[dict]:
    return ask(s, "getCompressedAccountsByOwner", {"owner": b58encode(s.keys[owner]), **params})["items"]


def every_live_account(s: Scenario) -> list[dict]:
    owners = {b58encode(a.owner) for a in s.ledger.accounts.values()}
    return [i for o in owners for i in ask(s, "getCompressedAccountsByOwner", {"owner": o})["items"]]


def test_every_listed_account_hash_recomputes_from_its_fields(s: Scenario) -> None:
    items = every_live_account(s)
    assert len(items) == sum(not a.closed for a in s.ledger.accounts.values())
    for item in items:
        assert wire_account_hash(item) == b58decode(item["hash"])


def test_plain_data_hashes_follow_the_scenario_convention(s: Scenario) -> None:
    for item in owner_items(s, "counter") + owner_items(s, "registry"):
        if item["data"] is not None:
            raw = base64.b64decode(item["data"]["data"])
            assert b58decode(item["data"]["dataHash"]) == hash_to_field(raw)


def test_by_hash_and_by_address_find_the_same_account(s: Scenario) -> None:
    by_hash = ask(s, "getCompressedAccount", {"hash": label(s, "c8")})
    assert by_hash["address"] is not None and by_hash["data"] is None
    assert ask(s, "getCompressedAccount", {"address": by_hash["address"], "hash": None}) == by_hash
    plain = ask(s, "getCompressedAccount", {"hash": label(s, "c6")})
    assert plain["address"] is None and plain["data"] is None and plain["slotCreated"] == 1002


def test_an_updated_address_finds_the_new_account(s: Scenario) -> None:
    address = b58encode(s.ledger.account(s.labels["r1"]).address)
    assert ask(s, "getCompressedAccount", {"address": address})["hash"] == label(s, "r1b")


@pytest.mark.parametrize("name", ["c2", "c3", "r1", "t3"])
def test_closed_accounts_are_not_found(s: Scenario, name: str) -> None:
    assert ask(s, "getCompressedAccount", {"hash": label(s, name)}) is None
    assert ask(s, "getCompressedAccountBalance", {"hash": label(s, name)}) == 0
    assert label(s, name) not in {i["hash"] for i in every_live_account(s)}


def test_unknown_accounts(s: Scenario) -> None:
    unknown = b58encode(bytes(32))
    assert ask(s, "getCompressedAccount", {"hash": unknown}) is None
    assert ask(s, "getCompressedAccount", {"address": unknown}) is None
    assert ask(s, "getCompressedAccountBalance", {"address": unknown}) == 0


@pytest.mark.parametrize("method", ["getCompressedAccount", "getCompressedAccountBalance", "getCompressedBalance"])
def test_neither_or_both_of_address_and_hash_fail(s: Scenario, method: str) -> None:
    with pytest.raises(RpcError) as neither:
        call(s.ledger, method, {}, OPTIONS)
    assert (neither.value.code, neither.value.message) == (
        SERVER_ERROR, "Validation Error: Either address or hash must be provided")
    account = s.ledger.account(s.labels["c8"])
    with pytest.raises(RpcError) as both:
        call(s.ledger, method, {"address": b58encode(account.address), "hash": b58encode(account.hash)}, OPTIONS)
    assert both.value.code == SERVER_ERROR and "Only one" in both.value.message


def test_balances_equal_sums_exactly(s: Scenario) -> None:
    for owner in ("counter", "registry", "vault", "idle"):
        items = owner_items(s, owner)
        total = ask(s, "getCompressedBalanceByOwner", {"owner": b58encode(s.keys[owner])})
        assert total == sum(i["lamports"] for i in items)
        for item in items:
            assert ask(s, "getCompressedBalance", {"hash": item["hash"]}) == item["lamports"]
    assert ask(s, "getCompressedBalanceByOwner", {"owner": b58encode(s.keys["vault"])}) == 2**63 + 2**53 + 1
    assert owner_items(s, "idle") == []


def test_data_slice_cuts_only_the_data_bytes(s: Scenario) -> None:
    whole = {i["hash"]: i for i in owner_items(s, "counter")}
    sliced = owner_items(s, "counter", dataSlice={"offset": 1, "length": 2})
    assert [i["hash"] for i in sliced] == list(whole)
    for item in sliced:
        full = whole[item["hash"]]
        if full["data"] is None:
            assert item["data"] is None
            continue
        assert base64.b64decode(item["data"]["data"]) == base64.b64decode(full["data"]["data"])[1:3]
        assert {k: v for k, v in item["data"].items() if k != "data"} == {
            k: v for k, v in full["data"].items() if k != "data"}
        assert {k: v for k, v in item.items() if k != "data"} == {k: v for k, v in full.items() if k != "data"}


def memcmp(offset: int, raw: bytes) -> dict:
    return {"memcmp": {"offset": offset, "bytes": b58encode(raw)}}


def test_memcmp_filters_match_data_bytes_and_are_anded(s: Scenario) -> None:
    c1, c5 = label(s, "c1"), label(s, "c5")  # data 00 01 02 .. 07 and 01 02 .. 10
    assert [i["hash"] for i in owner_items(s, "counter", filters=[memcmp(0, b"\x00\x01")])] == [c1]
    assert {i["hash"] for i in owner_items(s, "counter", filters=[memcmp(2, b"\x03")])} == {c5}
    both = owner_items(s, "counter", filters=[memcmp(0, b"\x01"), memcmp(3, b"\x04")])
    assert [i["hash"] for i in both] == [c5]
    assert owner_items(s, "counter", filters=[memcmp(0, b"\x00"), memcmp(0, b"\x01")]) == []
    assert owner_items(s, "counter", filters=[memcmp(7, b"\x07\x08")]) == []
    with_data = {i["hash"] for i in owner_items(s, "counter") if i["data"] is not None}
    assert {i["hash"] for i in owner_items(s, "counter", filters=[memcmp(0, b"")])} == with_data


def test_filtered_pages_continue_after_the_cursor(s: Scenario) -> None:
    filters = [memcmp(0, b"")]
    whole = owner_items(s, "counter", filters=filters)
    first = ask(s, "getCompressedAccountsByOwner", {"owner": b58encode(s.keys["counter"]), "filters": filters,
                                                    "limit": 2})
    rest = owner_items(s, "counter", filters=filters, cursor=first["cursor"])
    assert first["items"] + rest == whole


def test_more_filters_than_allowed_is_invalid_params(s: Scenario, contract) -> None:
    maximum = contract.method("getCompressedAccountsByOwner").observed["max_filters"]
    owner_items(s, "counter", filters=[memcmp(0, b"")] * maximum)
    with pytest.raises(RpcError) as caught:
        owner_items(s, "counter", filters=[memcmp(0, b"")] * (maximum + 1))
    assert caught.value.code == INVALID_PARAMS and str(maximum) in caught.value.message
