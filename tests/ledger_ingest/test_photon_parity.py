"""Every answer Photon recorded on data the kit holds, asked of the reference under the contract Photon serves
(`photon-366a15b`), whole: the tally is 20 of 20.

Photon at 366a15b (HEAD) recorded its answers as insta snapshots:
- the 14 of `fixtures/photon-0.50.0/snapshots/` (its e2e test over four real transactions and a real block;
  HEAD's copies of these 14 files are byte for byte the answers of 0.50.0), asked as `test_photon_replay.py`
  asks them, at slot 0. Here the `*-proofs` snapshots are asked of `getMultipleCompressedAccountProofs` itself
  (a method of this contract) and the `*-transaction` snapshots are compared with their `transaction` too;
- the 4 snapshots of `tests/integration_tests/mock_tests.rs` (test_get_multiple_new_address_proofs and
  test_get_multiple_new_address_proofs_interop, over an empty ledger at slot 0), 5 answers: the interop
  snapshot answers both getMultipleNewAddressProofs and its V2. Their JSON is written below, as Photon's files
  hold it, the 26 proof nodes once (every answer proves element 0 of a fresh address tree);
- one assertion of `batched_state_tree_tests.rs` (test_four_cpi_events L826-873): the owner's accounts come at
  leaf indices 0, 1, 2, 3 in the order listed.

What is not compared, as in `test_photon_replay.py`: `compressedProof` (blanked by Photon's tests), and
`slotCreated` of the accounts a `*-transaction` snapshot opens (Photon parses the fetched transaction again at
its real slot; the ledger indexed it at 0). Three of the 20 are answered otherwise under API 0.50.0, the
spec's contract, which the reference keeps as it was: the new-address proof of addresses at or above 2^248
(refused there), the four accounts' order (by hash there); and nothing else.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

import pytest
from csi_conformance.ledger_ingest import read_paths
from csi_conformance.reference_server.errors import RpcError
from csi_conformance.reference_server.ingest import ledger_from_blocks
from csi_conformance.reference_server.ledger_native import NativeLedger
from csi_conformance.reference_server.methods import call
from csi_conformance.reference_server.options import ServerOptions
from csi_conformance.schema import Contract

from tests.ledger_ingest.test_photon_head import ledger_of
from tests.ledger_ingest.test_photon_replay import (
    E2E,
    FIXTURES,
    MINT,
    PEOPLE,
    TRANSFER_1,
    VALID_ORDERS,
    ledger_at_slot_zero,
    raw_transaction,
    snapshot,
    walk,
)

PHOTON = Contract.for_api("photon-366a15b")
AMT1 = "amt1Ayt45jfbdw5YSo7iz6WZxUmnZsQTYXy82hVwyC2"
ROOT = "3FrGzyXtjqjnukHDS2M5oyVj8tMVcHSahcHpWBGR5MHY"
FOUR_CPI_PROGRAM = "FNt7byTHev1k5x2cXZLBr8TdWiC3zoP5vcnZR4P682Uy"
FRESH_PROOF = [
    "34cMT7MjFrs8hLp2zHMrPJHKkUxBDBwBTNck77wLjjcY", "3CFKteYSRSkp9EGFPzibgzCPtNuJ5HeZ31fAsBpgcHwZ",
    "274k4KPY5VhmU5pCwwJzyHaY4AH4m7SjnZnyj44UitJc", "2gQksfK543Jw196amPxXWceFzNTfRHiqb7x2edvupftT",
    "Y8pRoGMGXJPGZyb7m4sqkPsTSJvzZ7oSVnaybCcYbgd", "3w895nemtSxb1fEjFT3cXkVpW3y6f9uHQn43jEwu1RWc",
    "46JM2e72mdEAxkSeXc65b3aLWkAQpX6NF7mdyuXQKguu", "WKLyYL7wpK5zVsWoMU2rcUiMwRWp9PowG83GHHH1dqn",
    "4CztDUcRvGkTyFoVEXXcBwd5UwqJcJJWpdL8FFERrqkU", "yjDkqNqZtBwpG7iUwT3hqKNKZAP9CcBDyBBuGPNk2jQ",
    "2r8qWibedWpM7QkW6QvDDUEQAHT9isX629UKcUxbY8BT", "38Aoz1ZUAnRqSCxdQuEkLhzYMRi1Tu1rSBy1UymA8yfK",
    "3zBeAgo5EwPrgsXRLUV6DhQrsUUhwbmQXPnZkudhsnSD", "2Q5cDvZW6hTxFFDTHhAf129PH4z8EZLYA1meeZpPW76F",
    "2gnsMw1zhpqGeAakoQLarCXVUaeEGDHm5uma1Jznx7qD", "3MXZLrn3tnLMWJznkMombRHkgkfsiBTPru2wjHDd3kLh",
    "3rrDm8iED4sDyonpLs9J3TDoTP8U4jsvXCmoupoCvvKc", "48YJtP1G5pKWu7Jy1NRagdj29dwxVXFsySrBVw1nALhX",
    "22tjwuiv6VgeMDs8qXpkZ7cY5rcgrFrG5knp7swZ1wQ2", "2dS4UCZ6RJvwPBaWmcz1L7ips34xnbNMfK9D8UHdFJfT",
    "3EdF4zvu7uwW7xYdnaKUPzqDY5Msq9FfWn6HgEnRTkDB", "2jzv6Z8vEXSYRXQCFnVYvzgJ2RfyDN1QEjdHm6CBvJUg",
    "2fomPS2xUPwXxVF8hx5YtMpBHmQKSZKushUiWYsy9Eqx", "3Pi3nRu4fWpnW5rYDAoraX1Q2xDCRQ24Dq8TEY7gaSBn",
    "3dbMMyehykAriNZ8FMJgPc1N6YSzm9ZfV2HcW9sbaXzP", "4EE5KQnQ6Tvo78gGhTu8serpJV4srbRhYZ3rdvCiRa5e",
]
"""The proof of element 0 of a fresh v1 address tree, in every mock snapshot."""
BEYOND = ["Fi6AXBGuGs7DRXP428hwhJJfTpJ4BVZD8DiUcX1cj35W", "sH8ux4csv8wxiRejuHjpTCkrfGgeNtg6Y55AJJ9GJSd"]
"""test_get_multiple_new_address_proofs' addresses: byte 0 is 218 and 12, both at or above 2^248."""
INTEROP = "12nCKqGG85jHxbTeA8i2Z7D4vnNUUrQ4r5e8dv2o16X"
"""test_get_multiple_new_address_proofs_interop's address: bytes 0, 2, 3, …"""
BLANK = {"a": [], "b": [], "c": []}


def fresh_range(address: str) -> dict[str, Any]:
    """One item of a mock snapshot: `address` proven against the fresh tree's element 0 (0 → the highest)."""
    return {"root": ROOT, "address": address, "lowerRangeAddress": "11111111111111111111111111111111",
            "higherRangeAddress": "14uQeVj5tqViQh7yWWGStvkEG1Zmhx6uasJtWCJziofL", "nextIndex": 1,
            "proof": FRESH_PROOF, "merkleTree": AMT1, "rootSeq": 3, "lowElementLeafIndex": 0}


MOCK = {
    "get_multiple_new_address_proofs": {"context": {"slot": 0}, "value": [fresh_range(a) for a in BEYOND]},
    "get_multiple_new_address_proofs_interop": {"context": {"slot": 0}, "value": [fresh_range(INTEROP)]},
    "get_multiple_new_address_proofs_interop-validity-proof": {
        "value": {"compressedProof": BLANK, "roots": [ROOT], "rootIndices": [3], "leafIndices": [0],
                  "leaves": [INTEROP], "merkleTrees": [AMT1]},
        "context": {"slot": 0}},
    "get_multiple_new_address_proofs_interop-validity-proof-v2": {
        "value": {"compressedProof": BLANK, "accounts": [], "addresses": [
            {"address": INTEROP, "root": ROOT, "rootIndex": 3, "merkleContext": {
                "treeType": 2, "tree": AMT1, "queue": "aq1S9z4reTSQAdgWHGD2zDaS39sjGrAxbR31vxJ2F4F",
                "cpiContext": None, "nextTreeContext": None}}]},
        "context": {"slot": 0}},
}
"""`tests/integration_tests/snapshots/integration_tests__mock_tests__<name>.snap` of helius-labs/photon at 366a15b."""


@dataclass(frozen=True)
class Recorded:
    """One answer Photon recorded: where, and how to get the reference's and Photon's under `contract`."""

    name: str
    pair: Callable[[Contract], tuple[Any, Any]]
    in_spec: bool = True
    """Whether the spec's contract has the method asked (getMultipleCompressedAccountProofs and the V2 have not)."""


@cache
def replayed() -> NativeLedger:
    return ledger_at_slot_zero(VALID_ORDERS[0])


def ask(ledger: NativeLedger, contract: Contract, method: str, params: Any) -> Any:
    return call(ledger, method, params, ServerOptions(), contract)


def blanked(answer: Any) -> Any:
    """The answer with its compressed proof blanked, as Photon's tests blank theirs before the snapshot."""
    answer = copy.deepcopy(answer)
    answer["value"]["compressedProof"] = BLANK
    return answer


def _e2e(method: str, params: Callable[[Any], Any], name: str, *, walked: bool = False) -> Callable:
    def pair(contract: Contract) -> tuple[Any, Any]:
        expected = snapshot(f"{E2E}-{name}")
        if walked:
            return walk(replayed(), contract, method, params(expected)), expected
        return ask(replayed(), contract, method, params(expected)), expected
    return pair


def _validity(person: str) -> Callable:
    def pair(contract: Contract) -> tuple[Any, Any]:
        expected = snapshot(f"{E2E}-{person}-validity-proof")
        return blanked(ask(replayed(), contract, "getValidityProof", {"hashes": expected["value"]["leaves"]})), expected
    return pair


def _transaction(name: str, signature: str) -> Callable:
    def pair(contract: Contract) -> tuple[Any, Any]:
        expected = snapshot(f"{E2E}-{name}-transaction")
        real_slot = raw_transaction(signature)["slot"]
        for item in expected["compressionInfo"]["openedAccounts"]:  # re-parsed at the real slot by Photon
            assert item["account"]["slotCreated"] == real_slot
            item["account"]["slotCreated"] = 0
        return ask(replayed(), contract, "getTransactionWithCompressionInfo", {"signature": signature}), expected
    return pair


def _non_voting(contract: Contract) -> tuple[Any, Any]:
    ledger = ledger_from_blocks(read_paths([FIXTURES / "blocks" / "get_lanon_voting_signatures"]))
    expected = snapshot("integration_tests__e2e_tests__get_lanon_voting_signatures-non-voting-transactions")
    return ask(ledger, contract, "getLatestNonVotingSignatures", {}), expected


def _mock(name: str, method: str, params: Any, *, blank: bool = False) -> Callable:
    def pair(contract: Contract) -> tuple[Any, Any]:
        answer = ask(NativeLedger(), contract, method, params)
        return (blanked(answer) if blank else answer), MOCK[name]
    return pair


def _four_cpi(contract: Contract) -> tuple[Any, Any]:
    items = ask(ledger_of("four_cpi_events"), contract, "getCompressedAccountsByOwner",
                {"owner": FOUR_CPI_PROGRAM})["value"]["items"]
    return [a["leafIndex"] for a in items], [0, 1, 2, 3]


def _catalogue() -> list[Recorded]:
    e2e: list[Recorded] = []
    for person, owner in sorted(PEOPLE.items()):
        e2e += [
            Recorded(f"{person}-accounts", _e2e("getCompressedTokenAccountsByOwner", lambda _, o=owner: {"owner": o},
                                                f"{person}-accounts")),
            Recorded(f"{person}-token-balances", _e2e("getCompressedTokenBalancesByOwner",
                                                      lambda _, o=owner: {"owner": o}, f"{person}-token-balances")),
            Recorded(f"{person}-token-signatures", _e2e("getCompressionSignaturesForTokenOwner",
                                                        lambda _, o=owner: {"owner": o}, f"{person}-token-signatures",
                                                        walked=True)),
            Recorded(f"{person}-validity-proof", _validity(person)),
            Recorded(f"{person}-proofs", _e2e("getMultipleCompressedAccountProofs",
                                              lambda expected: [item["hash"] for item in expected["value"]],
                                              f"{person}-proofs"), in_spec=False),
        ]
    return [
        *e2e,
        Recorded("latest-signatures", _e2e("getLatestCompressionSignatures", lambda _: {}, "latest-signatures",
                                           walked=True)),
        Recorded("mint-transaction", _transaction("mint", MINT)),
        Recorded("transfer-transaction", _transaction("transfer", TRANSFER_1)),
        Recorded("get_lanon_voting_signatures-non-voting-transactions", _non_voting),
        Recorded("mock get_multiple_new_address_proofs",
                 _mock("get_multiple_new_address_proofs", "getMultipleNewAddressProofs", BEYOND)),
        Recorded("mock interop", _mock("get_multiple_new_address_proofs_interop", "getMultipleNewAddressProofs",
                                       [INTEROP])),
        Recorded("mock interop (V2)", _mock("get_multiple_new_address_proofs_interop",
                                            "getMultipleNewAddressProofsV2", [{"address": INTEROP, "tree": AMT1}]),
                 in_spec=False),
        Recorded("mock interop-validity-proof", _mock("get_multiple_new_address_proofs_interop-validity-proof",
                                                      "getValidityProof", {"newAddresses": [INTEROP]}, blank=True)),
        Recorded("mock interop-validity-proof-v2",
                 _mock("get_multiple_new_address_proofs_interop-validity-proof-v2", "getValidityProofV2",
                       {"newAddressesWithTrees": [{"address": INTEROP, "tree": AMT1}]}, blank=True), in_spec=False),
        Recorded("four_cpi_events order (test_four_cpi_events)", _four_cpi),
    ]


CATALOGUE = _catalogue()


def differing(contract: Contract, catalogue: list[Recorded] = CATALOGUE) -> list[str]:
    """The recorded answers the reference gives otherwise under `contract`: refused, or not equal."""
    names = []
    for recorded in catalogue:
        try:
            answer, expected = recorded.pair(contract)
        except RpcError:
            names.append(recorded.name)
            continue
        if answer != expected:
            names.append(recorded.name)
    return names


def test_every_answer_photon_recorded_is_the_references_under_its_contract() -> None:
    assert len(CATALOGUE) == 20
    assert differing(PHOTON) == []  # 20 of 20


def test_under_the_spec_contract_only_photons_later_practice_differs() -> None:
    """The spec's contract keeps what the reference served before: of the 16 answers of its methods, the two of
    today's practice differ there (addresses at or above 2^248 refused, accounts by hash), and no other."""
    spec = [recorded for recorded in CATALOGUE if recorded.in_spec]
    assert len(spec) == 16
    assert differing(Contract.default(), spec) == ["mock get_multiple_new_address_proofs",
                                                   "four_cpi_events order (test_four_cpi_events)"]


@pytest.mark.parametrize("order", VALID_ORDERS[1:], ids=["second-order"])
def test_the_replayed_answers_do_not_depend_on_the_order_indexed(order: tuple[str, ...]) -> None:
    other = ledger_at_slot_zero(order)
    for person, owner in PEOPLE.items():
        assert ask(other, PHOTON, "getCompressedTokenAccountsByOwner", {"owner": owner}) == snapshot(
            f"{E2E}-{person}-accounts")
