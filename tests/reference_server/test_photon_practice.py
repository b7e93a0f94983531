"""The reference under the contract of the API clients call today (`photon-366a15b`) serves Photon's practice where
it differs from the spec's contract on a method both list; under API 0.50.0 it serves what it served before.

- An owner's accounts: by leaf index then hash (Photon's `ORDER BY accounts.leaf_index, accounts.hash`), with a
  cursor of Photon's form (the last item's hash) that the reference reads as that account's place in the order,
  so a cursor walk gives every account once. Photon's own rule (`hash >` the cursor) is shown to skip and repeat
  on the same ledger, which is why the reference does not copy it.
- A new address at or above 2^248: answered with the range below the highest element, as Photon answers it;
  refused under API 0.50.0, and by getValidityProof under both (Photon's prover cannot prove it either).
"""

from __future__ import annotations

import base64
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from csi_conformance.groundwork.base58 import b58decode, b58encode
from csi_conformance.ledger_crypto import HIGHEST_ADDRESS_PLUS_ONE
from csi_conformance.reference_server.errors import RpcError
from csi_conformance.reference_server.ledger import Ledger
from csi_conformance.reference_server.methods import call
from csi_conformance.reference_server.options import ServerOptions
from csi_conformance.reference_server.scenario import load_scenario
from csi_conformance.reference_server.serve import running_server
from csi_conformance.reference_server.wiring import app_for
from csi_conformance.schema import Contract

PHOTON, SPEC = Contract.for_api("photon-366a15b"), Contract.default()
OWNER = "HXqWBGAti3PL6VGuVEjUEeTUQ1tMmHmbkovbAJBBUiGE"
"""An owner of the default scenario with 12 accounts in two trees, two of them at leaf 0: hash order and leaf
order differ."""
BEYOND = "Fi6AXBGuGs7DRXP428hwhJJfTpJ4BVZD8DiUcX1cj35W"
"""An address of Photon's own test (`mock_tests.rs`, test_get_multiple_new_address_proofs), byte 0 = 218."""


@pytest.fixture(scope="module")
def ledger() -> Ledger:
    return load_scenario("default")


def ask(ledger: Ledger, contract: Contract, method: str, params: Any) -> Any:
    return call(ledger, method, params, ServerOptions(), contract)


def walk(ledger: Ledger, contract: Contract, method: str, size: int, **more: Any) -> list[dict]:
    """Every item of an owner list, `size` at a time, following each cursor."""
    items: list[dict] = []
    cursor = None
    for _ in range(100):
        value = ask(ledger, contract, method, {"owner": OWNER, "limit": size, **more,
                                               **({"cursor": cursor} if cursor else {})})["value"]
        items += value["items"]
        cursor = value["cursor"]
        if cursor is None:
            return items
    raise AssertionError("the walk never ended")


def place(item: dict) -> tuple[int, bytes]:
    account = item.get("account", item)
    return account["leafIndex"], b58decode(account["hash"], length=32)


def test_the_spec_contract_keeps_hash_order_and_photons_orders_by_leaf_index(ledger: Ledger) -> None:
    by_spec = ask(ledger, SPEC, "getCompressedAccountsByOwner", {"owner": OWNER})["value"]["items"]
    by_photon = ask(ledger, PHOTON, "getCompressedAccountsByOwner", {"owner": OWNER})["value"]["items"]
    assert len(by_spec) == len(by_photon) == 12
    assert [b58decode(a["hash"], length=32) for a in by_spec] == sorted(b58decode(a["hash"], length=32)
                                                                      for a in by_spec)
    assert [place(a) for a in by_photon] == sorted(place(a) for a in by_spec)
    assert [place(a) for a in by_photon] != [place(a) for a in by_spec]
    assert [a["leafIndex"] for a in by_photon][:2] == [0, 0]  # two trees: the hash breaks the tie


@pytest.mark.parametrize("method", ["getCompressedAccountsByOwner", "getCompressedAccountsByOwnerV2"])
@pytest.mark.parametrize("size", [1, 2, 3, 5])
def test_a_cursor_walk_in_leaf_order_gives_every_account_once(ledger: Ledger, method: str, size: int) -> None:
    whole = ask(ledger, PHOTON, method, {"owner": OWNER})["value"]["items"]
    walked = walk(ledger, PHOTON, method, size)
    assert walked == whole and len({place(a) for a in walked}) == 12
    page = ask(ledger, PHOTON, method, {"owner": OWNER, "limit": size})["value"]
    assert page["cursor"] == page["items"][-1]["hash"]  # Photon's form: the last item's hash


def test_photons_own_cursor_rule_would_skip_and_repeat_on_this_ledger(ledger: Ledger) -> None:
    """Photon pages by `hash >` the cursor in leaf order: replayed here over the same accounts, a walk of two a page
    misses accounts and gives others twice, which is why the reference reads the cursor as a place instead."""
    items = ask(ledger, PHOTON, "getCompressedAccountsByOwner", {"owner": OWNER})["value"]["items"]
    ordered = [place(a) for a in items]
    seen: list[tuple[int, bytes]] = []
    cursor = None
    for _ in range(20):
        page = [p for p in ordered if cursor is None or p[1] > cursor][:2]
        seen += page
        if len(page) < 2:
            break
        cursor = page[-1][1]
    assert set(seen) != set(ordered) or len(seen) != len(set(seen))


def test_filters_and_a_data_slice_walk_in_leaf_order(ledger: Ledger) -> None:
    accounts = ask(ledger, PHOTON, "getCompressedAccountsByOwner", {"owner": OWNER})["value"]["items"]
    with_data = [a for a in accounts if a["data"] is not None]
    assert with_data, "the default scenario gives this owner accounts with data"
    first = b58encode(base64.b64decode(with_data[0]["data"]["data"])[:1])
    memcmp = [{"memcmp": {"offset": 0, "bytes": first}}]
    whole = ask(ledger, PHOTON, "getCompressedAccountsByOwner", {"owner": OWNER, "filters": memcmp})["value"]["items"]
    assert whole and [place(a) for a in whole] == sorted(place(a) for a in whole)
    assert walk(ledger, PHOTON, "getCompressedAccountsByOwner", 1, filters=memcmp) == whole


def test_a_cursor_naming_no_account_is_refused_under_leaf_order(ledger: Ledger) -> None:
    unknown = b58encode(bytes(range(32)))
    with pytest.raises(RpcError, match="names no account") as caught:
        ask(ledger, PHOTON, "getCompressedAccountsByOwner", {"owner": OWNER, "cursor": unknown})
    assert caught.value.code == -32602
    assert ask(ledger, SPEC, "getCompressedAccountsByOwner", {"owner": OWNER, "cursor": unknown})["value"] is not None


def test_an_address_beyond_the_highest_gets_photons_range_under_its_contract_only(ledger: Ledger) -> None:
    """Over a tree holding addresses: the range answered is the largest element's, which ends at the highest;
    it does not contain the address (nothing can be proven with it), which is Photon's answer all the same."""
    tree = ledger.address_tree
    values = [tree.element(i).value for i in range(tree.next_index)]
    largest = max(v for v in values if v < HIGHEST_ADDRESS_PLUS_ONE)
    assert largest > 0, "the default scenario has addresses in its tree"
    for address in (BEYOND, b58encode(HIGHEST_ADDRESS_PLUS_ONE.to_bytes(32, "big")), b58encode(b"\xff" * 32)):
        [proof] = ask(ledger, PHOTON, "getMultipleNewAddressProofs", [address])["value"]
        assert proof["address"] == address
        assert int.from_bytes(b58decode(proof["lowerRangeAddress"], length=32), "big") == largest
        assert int.from_bytes(b58decode(proof["higherRangeAddress"], length=32), "big") == HIGHEST_ADDRESS_PLUS_ONE
        assert b58decode(proof["root"], length=32) == tree.root
        [v2] = ask(ledger, PHOTON, "getMultipleNewAddressProofsV2",
                   [{"address": address, "tree": b58encode(ledger.address_tree_key)}])["value"]
        assert v2 == proof
        with pytest.raises(RpcError, match=r"not a valid address|already exists"):
            ask(ledger, SPEC, "getMultipleNewAddressProofs", [address])
        with pytest.raises(RpcError):
            ask(ledger, PHOTON, "getValidityProof", {"newAddresses": [address]})


@pytest.fixture(scope="module")
def served(ledger: Ledger) -> Iterator[dict[str, str]]:
    with running_server(app_for(ledger, ServerOptions(), PHOTON)) as photon, \
            running_server(app_for(ledger, ServerOptions(), SPEC)) as spec:
        yield {"photon-366a15b": photon, "0.50.0": spec}


def rpc(url: str, method: str, params: Any) -> Any:
    body = httpx.post(url, json={"jsonrpc": "2.0", "id": 1, "method": method, "params": params}, timeout=30).json()
    return body.get("result", body.get("error"))


def test_over_http_each_served_contract_answers_its_own_practice(served: dict[str, str]) -> None:
    photon = rpc(served["photon-366a15b"], "getCompressedAccountsByOwner", {"owner": OWNER})["value"]["items"]
    spec = rpc(served["0.50.0"], "getCompressedAccountsByOwner", {"owner": OWNER})["value"]["items"]
    assert [place(a) for a in photon] == sorted(place(a) for a in spec) != [place(a) for a in spec]
    assert rpc(served["photon-366a15b"], "getMultipleNewAddressProofs", [BEYOND])["value"][0]["address"] == BEYOND
    assert "2^248" in rpc(served["0.50.0"], "getMultipleNewAddressProofs", [BEYOND])["message"]
