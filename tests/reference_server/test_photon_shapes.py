"""The 20 methods Photon serves beside the spec's 19, answered by the reference over the default scenario: each
answer is what the second contract (schema/photon-366a15b) says, and each V2 answer carries what its V1 method
answers, every account written as an `AccountV2`."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest
from csi_conformance.groundwork.base58 import b58decode, b58encode
from csi_conformance.reference_server.errors import METHOD_NOT_FOUND, SERVER_ERROR, RpcError
from csi_conformance.reference_server.methods import call, readings
from csi_conformance.reference_server.options import ServerOptions
from csi_conformance.reference_server.scenario import Scenario, open_scenario
from csi_conformance.reference_server.wiring import SERVED_API
from csi_conformance.schema import Contract

CONTRACT = Contract.for_api(SERVED_API)
OPTIONS = ServerOptions()
FRESH = b58encode(b"\0" + hashlib.sha256(b"today-shapes").digest()[1:])


@pytest.fixture(scope="module")
def s() -> Scenario:
    return open_scenario("default")


def ask(s: Scenario, method: str, params: Any) -> Any:
    """The reference's answer, checked against the second contract's result schema."""
    result = call(s.ledger, method, params, OPTIONS, CONTRACT)
    problems = CONTRACT.result_validator(method, readings(CONTRACT, OPTIONS)).violations(result)
    assert problems == [], f"{method}: {[str(p) for p in problems]}"
    return result["value"] if CONTRACT.method(method).state else result


def _key(s: Scenario, name: str) -> str:
    return b58encode(s.keys[name])


def _label(s: Scenario, name: str) -> str:
    return b58encode(s.labels[name])


def _address(s: Scenario, name: str) -> str:
    return b58encode(s.ledger.accounts[s.labels[name]].address)


SAMPLES = {
    "liveness": lambda s: None,
    "readiness": lambda s: [],
    "getCompressedAccountV2": lambda s: {"hash": _label(s, "c1")},
    "getMultipleCompressedAccounts": lambda s: {"hashes": [_label(s, "c1"), FRESH]},
    "getMultipleCompressedAccountsV2": lambda s: {"addresses": [_address(s, "r1"), FRESH]},
    "getCompressedAccountsByOwnerV2": lambda s: {"owner": _key(s, "counter"), "limit": 3},
    "getCompressedTokenAccountsByOwnerV2": lambda s: {"owner": _key(s, "alice")},
    "getCompressedTokenAccountsByDelegateV2": lambda s: {"delegate": _key(s, "dave")},
    "getCompressedTokenBalancesByOwnerV2": lambda s: {"owner": _key(s, "alice")},
    "getCompressedMintTokenHolders": lambda s: {"mint": _key(s, "usdc")},
    "getCompressionSignaturesForAccount": lambda s: {"hash": _label(s, "c1")},
    "getTransactionWithCompressionInfoV2": lambda s: {"signature": b58encode(next(
        tx.signature for tx in s.ledger.transactions.values() if tx.closed and tx.opened))},
    "getCompressedAccountProof": lambda s: {"hash": _label(s, "c1")},
    "getCompressedAccountProofV2": lambda s: {"hash": _label(s, "c4")},
    "getMultipleCompressedAccountProofs": lambda s: [_label(s, "c1"), _label(s, "c4")],
    "getMultipleCompressedAccountProofsV2": lambda s: [_label(s, "c4"), _label(s, "c1")],
    "getMultipleNewAddressProofsV2": lambda s: [{"address": FRESH, "tree": b58encode(s.ledger.address_tree_key)}],
    "getValidityProofV2": lambda s: {"hashes": [_label(s, "c1"), _label(s, "c4")],
                                     "newAddressesWithTrees": [{"address": FRESH,
                                                                "tree": b58encode(s.ledger.address_tree_key)}]},
    "getQueueInfo": lambda s: {},
    "getQueueElements": lambda s: {"tree": b58encode(s.ledger.address_tree_key), "outputQueue": {"limit": 10}},
}
"""One request per method the second contract adds (getQueueElements of a ledger without batched trees fails)."""


def test_every_added_method_is_sampled_and_the_spec_contract_does_not_serve_them(s: Scenario) -> None:
    assert set(SAMPLES) == set(CONTRACT.own_methods())
    for method in SAMPLES:
        with pytest.raises(RpcError) as refused:
            call(s.ledger, method, SAMPLES[method](s), OPTIONS, Contract.default())
        assert refused.value.code == METHOD_NOT_FOUND


@pytest.mark.parametrize("method", sorted(set(SAMPLES) - {"getQueueElements"}))
def test_every_added_method_answers_in_its_contract_shape(s: Scenario, method: str) -> None:
    ask(s, method, SAMPLES[method](s))


def test_queue_elements_of_a_tree_without_queues_is_refused(s: Scenario) -> None:
    with pytest.raises(RpcError, match="not a batched state tree") as refused:
        call(s.ledger, "getQueueElements", SAMPLES["getQueueElements"](s), OPTIONS, CONTRACT)
    assert refused.value.code == SERVER_ERROR


def _without_v2(account: dict[str, Any]) -> dict[str, Any]:
    body = {k: v for k, v in account.items() if k not in ("proveByIndex", "merkleContext")}
    return {**body, "tree": account["merkleContext"]["tree"]}


@pytest.mark.parametrize(("v2", "v1", "params"), [
    ("getCompressedAccountsByOwnerV2", "getCompressedAccountsByOwner", lambda s: {"owner": _key(s, "counter")}),
    ("getCompressedTokenAccountsByOwnerV2", "getCompressedTokenAccountsByOwner", lambda s: {"owner": _key(s, "alice")}),
    ("getCompressedTokenAccountsByDelegateV2", "getCompressedTokenAccountsByDelegate",
     lambda s: {"delegate": _key(s, "dave")}),
])
def test_a_v2_list_is_its_v1_list_with_v2_accounts_page_by_page(s: Scenario, v2: str, v1: str, params: Any) -> None:
    """Cursor walks at limit 2: the same pages, the same cursors, each account the V1 one plus its context."""
    cursor, pages = None, 0
    while True:
        page = {**params(s), "limit": 2, **({"cursor": cursor} if cursor else {})}
        new, old = ask(s, v2, page), ask(s, v1, page)
        assert new["cursor"] == old["cursor"]
        for got, want in zip(new["items"], old["items"], strict=True):
            if "tokenData" in got:
                assert got["tokenData"] == want["tokenData"]
                got, want = got["account"], want["account"]
            assert _without_v2(got) == want and got["proveByIndex"] is False
        pages, cursor = pages + 1, new["cursor"]
        if cursor is None:
            break
    assert pages >= 2


def test_v1_accounts_name_their_tree_and_its_nullifier_queue(s: Scenario) -> None:
    queues = {"smt1NamzXdq4AMqS2fS2F1i5KTYPZRhoHgWx38d8WsT": "nfq1NvQDJ2GEgnS8zt9prAe8rjjpAW1zFkrvZoBR148",
              "smt2rJAFdyJJupwMKAqTNAJwvjhmiZ4JYGZmbVRw1Ho": "nfq2hgS7NYemXsFaFUCe3EMXSDSfnZnAe27jC6aPP1X"}
    seen = set()
    for account in (a for a in s.ledger.accounts.values() if not a.closed):
        context = ask(s, "getCompressedAccountV2", {"hash": b58encode(account.hash)})["merkleContext"]
        assert context == {"treeType": 1, "tree": b58encode(account.tree), "queue": queues[b58encode(account.tree)],
                           "cpiContext": None, "nextTreeContext": None}
        seen.add(context["tree"])
    assert seen == set(queues)


def test_validity_proof_v2_root_indices_are_each_trees_own(s: Scenario) -> None:
    c1, c4 = (s.ledger.accounts[s.labels[name]] for name in ("c1", "c4"))
    trees = [s.ledger.state_trees[a.tree] for a in (c1, c4)]
    assert c1.tree != c4.tree and trees[0].root_index != trees[1].root_index
    value = ask(s, "getValidityProofV2", SAMPLES["getValidityProofV2"](s))
    assert [a["rootIndex"] for a in value["accounts"]] == [{"rootIndex": t.root_index, "proveByIndex": False}
                                                           for t in trees]
    assert [a["root"] for a in value["accounts"]] == [b58encode(t.root) for t in trees]
    (address,) = value["addresses"]
    assert address["rootIndex"] == s.ledger.address_tree.root_index
    assert address["merkleContext"]["queue"] == "aq1S9z4reTSQAdgWHGD2zDaS39sjGrAxbR31vxJ2F4F"
    assert value["compressedProof"] is not None


def test_validity_proof_v2_of_nothing_is_empty(s: Scenario) -> None:
    assert ask(s, "getValidityProofV2", {}) == {"compressedProof": None, "accounts": [], "addresses": []}


def test_mint_holders_page_by_balance_then_owner_descending(s: Scenario) -> None:
    everyone = ask(s, "getCompressedMintTokenHolders", {"mint": _key(s, "usdc")})["items"]
    assert len(everyone) >= 2
    order = [(h["balance"], b58decode(h["owner"], length=32)) for h in everyone]
    assert order == sorted(order, reverse=True)
    walked, cursor = [], None
    while True:
        page = ask(s, "getCompressedMintTokenHolders", {"mint": _key(s, "usdc"), "limit": 1,
                                                        **({"cursor": cursor} if cursor else {})})
        walked += page["items"]
        cursor = page["cursor"]
        if cursor is None:
            break
    assert walked == everyone


def test_signatures_for_an_account_name_its_transactions(s: Scenario) -> None:
    closed = next(a for a in s.ledger.accounts.values() if a.closed)
    items = ask(s, "getCompressionSignaturesForAccount", {"hash": b58encode(closed.hash)})["items"]
    assert {i["signature"] for i in items} == {b58encode(closed.opened_by), b58encode(closed.closed_by)}
    with pytest.raises(RpcError, match="Record Not Found"):
        call(s.ledger, "getCompressionSignaturesForAccount", {"hash": FRESH}, OPTIONS, CONTRACT)


def test_multiple_accounts_refuse_both_lists_and_neither(s: Scenario) -> None:
    for method in ("getMultipleCompressedAccounts", "getMultipleCompressedAccountsV2"):
        for params in ({}, {"hashes": [FRESH], "addresses": [FRESH]}):
            with pytest.raises(RpcError, match="Validation Error") as refused:
                call(s.ledger, method, params, OPTIONS, CONTRACT)
            assert refused.value.code == SERVER_ERROR


def test_account_v2_given_both_members_is_answered_by_the_address(s: Scenario) -> None:
    by_address = ask(s, "getCompressedAccountV2", {"address": _address(s, "r1")})
    assert ask(s, "getCompressedAccountV2", {"address": _address(s, "r1"), "hash": _label(s, "c1")}) == by_address
    with pytest.raises(RpcError):  # neither: the contract's params schema asks for one of them
        call(s.ledger, "getCompressedAccountV2", {}, OPTIONS, CONTRACT)
