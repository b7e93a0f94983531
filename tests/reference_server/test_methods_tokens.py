"""Token accounts by owner and delegate, token balances, and one token account's balance."""

from __future__ import annotations

import base64
from collections import defaultdict

import pytest
from csi_conformance.groundwork.base58 import b58decode, b58encode
from csi_conformance.ledger_crypto import TOKEN_PROGRAM_ID, decode_token_data, token_data_hash
from csi_conformance.reference_server.errors import SERVER_ERROR, RpcError
from csi_conformance.reference_server.methods import call
from csi_conformance.reference_server.scenario import Scenario

from .support import OPTIONS, ask

U64_MAX = 2**64 - 1


def k(s: Scenario, name: str) -> str:
    return b58encode(s.keys[name])


def by_owner(s: Scenario, owner: str, **params) -> list[dict]:
    return ask(s, "getCompressedTokenAccountsByOwner", {"owner": k(s, owner), **params})["items"]


def by_delegate(s: Scenario, delegate: str, **params) -> list[dict]:
    return ask(s, "getCompressedTokenAccountsByDelegate", {"delegate": k(s, delegate), **params})["items"]


def labels_of(s: Scenario, items: list[dict]) -> set[str]:
    names = {b58encode(h): name for name, h in s.labels.items()}
    return {names[i["account"]["hash"]] for i in items}


def all_token_items(s: Scenario) -> list[dict]:
    return [i for owner in ("alice", "bob", "carol") for i in by_owner(s, owner)]


def test_token_data_hashes_and_bytes_recompute_from_token_data(s: Scenario) -> None:
    items = all_token_items(s)
    assert len(items) == sum(a.token is not None and not a.closed for a in s.ledger.accounts.values())
    for item in items:
        account, token = item["account"], item["tokenData"]
        assert account["owner"] == b58encode(TOKEN_PROGRAM_ID) and account["data"]["discriminator"] == 2
        expected = token_data_hash(
            mint=b58decode(token["mint"]), owner=b58decode(token["owner"]), amount=token["amount"],
            delegate=None if token["delegate"] is None else b58decode(token["delegate"]),
            frozen=token["state"] == "frozen",
        )
        assert b58decode(account["data"]["dataHash"]) == expected
        decoded = decode_token_data(base64.b64decode(account["data"]["data"]))
        assert decoded.amount == token["amount"] and b58encode(decoded.mint) == token["mint"]
        assert decoded.tlv == (None if token["tlv"] is None else base64.b64decode(token["tlv"]))


def test_owner_lists_hold_live_accounts_only(s: Scenario) -> None:
    assert labels_of(s, by_owner(s, "alice")) == {"t1", "t6"}
    assert labels_of(s, by_owner(s, "bob")) == {"t4", "t7"}
    assert by_owner(s, "idle") == []


def test_mint_restricts_the_lists(s: Scenario) -> None:
    assert labels_of(s, by_owner(s, "alice", mint=k(s, "usdc"))) == {"t1", "t6"}
    assert by_owner(s, "alice", mint=k(s, "bonk")) == []
    (frozen,) = by_owner(s, "bob", mint=k(s, "wsol"))
    assert frozen["tokenData"]["state"] == "frozen" and frozen["tokenData"]["amount"] == U64_MAX
    assert labels_of(s, by_delegate(s, "dave", mint=k(s, "bonk"))) == {"t5"}


def test_delegate_lists_hold_only_accounts_delegated_to_the_delegate(s: Scenario) -> None:
    dave = by_delegate(s, "dave")
    assert labels_of(s, dave) == {"t1", "t5"}
    assert all(i["tokenData"]["delegate"] == k(s, "dave") for i in dave)
    assert labels_of(s, by_delegate(s, "erin")) == {"t6"}
    assert by_delegate(s, "alice") == [] and by_delegate(s, "idle") == []


def test_tlv_and_explicit_nulls(s: Scenario) -> None:
    (carol_bonk,) = by_owner(s, "carol", mint=k(s, "bonk"))
    assert carol_bonk["tokenData"]["tlv"] == "AQIDBA=="
    (bob_usdc,) = by_owner(s, "bob", mint=k(s, "usdc"))
    assert bob_usdc["tokenData"]["delegate"] is None and bob_usdc["tokenData"]["tlv"] is None
    assert bob_usdc["account"]["address"] is None


@pytest.mark.parametrize("owner", ["alice", "bob", "carol", "idle"])
def test_token_balances_are_sums_per_mint(s: Scenario, owner: str) -> None:
    sums: dict[str, int] = defaultdict(int)
    for item in by_owner(s, owner):
        sums[item["tokenData"]["mint"]] += item["tokenData"]["amount"]
    value = ask(s, "getCompressedTokenBalancesByOwner", {"owner": k(s, owner)})
    assert {b["mint"]: b["balance"] for b in value["token_balances"]} == sums
    mints = [b58decode(b["mint"]) for b in value["token_balances"]]
    assert mints == sorted(mints)
    for mint, total in sums.items():
        one = ask(s, "getCompressedTokenBalancesByOwner", {"owner": k(s, owner), "mint": mint})
        assert one == {"token_balances": [{"balance": total, "mint": mint}], "cursor": None}


def test_big_amounts_survive_exactly(s: Scenario) -> None:
    value = ask(s, "getCompressedTokenBalancesByOwner", {"owner": k(s, "alice")})
    assert value["token_balances"] == [{"balance": 2**53 + 1 + 7, "mint": k(s, "usdc")}]


@pytest.mark.parametrize("name,amount", [("t4", U64_MAX), ("t1", 2**53 + 1), ("t3", 0), ("c1", 0)])
def test_token_account_balance(s: Scenario, name: str, amount: int) -> None:
    hash_ = b58encode(s.labels[name])
    assert ask(s, "getCompressedTokenAccountBalance", {"hash": hash_}) == {"amount": amount}


def test_token_account_balance_of_unknown_and_of_nothing(s: Scenario) -> None:
    assert ask(s, "getCompressedTokenAccountBalance", {"address": b58encode(bytes(32))}) == {"amount": 0}
    with pytest.raises(RpcError) as caught:
        call(s.ledger, "getCompressedTokenAccountBalance", {"hash": None}, OPTIONS)
    assert caught.value.code == SERVER_ERROR and "Either address or hash" in caught.value.message
