"""getValidityProof and getMultipleNewAddressProofs: merkle context that verifies, limits, errors."""

from __future__ import annotations

import hashlib
import socket
from typing import Any

import pytest
from csi_conformance.groundwork.base58 import b58decode, b58encode
from csi_conformance.ledger_crypto import HIGHEST_ADDRESS_PLUS_ONE, NonInclusionProof, fold_path, verify_non_inclusion
from csi_conformance.reference_server.errors import INVALID_PARAMS, SERVER_ERROR, RpcError
from csi_conformance.reference_server.methods import call
from csi_conformance.reference_server.options import ServerOptions
from csi_conformance.reference_server.scenario import Scenario, open_scenario

from . import support

WIRE = ServerOptions()
SPEC = ServerOptions(proof_form="spec-2.10")
TREE = "amt1Ayt45jfbdw5YSo7iz6WZxUmnZsQTYXy82hVwyC2"


def ask(s: Scenario, method: str, params: Any, options: ServerOptions = WIRE) -> Any:
    return support.ask(s, method, params, options)


def fail(s: Scenario, method: str, params: Any, options: ServerOptions = WIRE) -> RpcError:
    with pytest.raises(RpcError) as caught:
        call(s.ledger, method, params, options)
    return caught.value


def fresh(n: int) -> str:
    """A new address (byte 0 is 0) that no scenario holds."""
    return b58encode(b"\0" + hashlib.sha256(f"fresh-{n}".encode()).digest()[1:])


def live_hashes(s: Scenario, count: int) -> list[str]:
    live = sorted(a.hash for a in s.ledger.accounts.values() if not a.closed)
    assert len(live) >= count
    return [b58encode(h) for h in live[:count]]


def with_trees(*addresses: str) -> list[dict]:
    return [{"address": a, "tree": TREE} for a in addresses]


def check_accounts(s: Scenario, value: dict, hashes: list[str]) -> None:
    """Each account's leaf folds through its tree's proof to the root given, at the current root index."""
    for i, text in enumerate(hashes):
        account = s.ledger.account(b58decode(text))
        tree = s.ledger.state_trees[account.tree]
        assert value["leaves"][i] == text and value["leafIndices"][i] == account.leaf_index
        assert fold_path(account.hash, account.leaf_index, tree.proof(account.leaf_index)) == b58decode(
            value["roots"][i])
        assert value["rootIndices"][i] == tree.seq % 2400
        assert value["merkleTrees"][i] == b58encode(account.tree)


@pytest.mark.parametrize("count", [1, 2, 3, 4, 8])
def test_account_proofs_fold_to_their_roots(s: Scenario, count: int) -> None:
    hashes = live_hashes(s, count)
    value = ask(s, "getValidityProof", {"hashes": hashes})
    check_accounts(s, value, hashes)
    assert set(value["compressedProof"]) == {"a", "b", "c"}


@pytest.mark.parametrize("hashes,addresses", [(0, 1), (0, 2), (1, 1), (4, 2), (3, 1)])
def test_combined_proofs_put_accounts_first_then_addresses(s: Scenario, hashes: int, addresses: int) -> None:
    account_hashes = live_hashes(s, hashes)
    news = [fresh(i) for i in range(addresses)]
    params = {"newAddressesWithTrees": with_trees(*news)}
    if account_hashes:
        params["hashes"] = account_hashes
    value = ask(s, "getValidityProof", params)
    check_accounts(s, value, account_hashes)
    proofs = ask(s, "getMultipleNewAddressProofs", news)
    for offset, proof in enumerate(proofs, start=hashes):
        assert value["leaves"][offset] == proof["address"]
        assert value["leafIndices"][offset] == proof["lowElementLeafIndex"]
        assert value["roots"][offset] == proof["root"] == b58encode(s.ledger.address_tree.root)
        assert value["rootIndices"][offset] == proof["rootSeq"] % 2400
        assert value["merkleTrees"][offset] == TREE


def test_the_deprecated_form_uses_the_default_address_tree(s: Scenario) -> None:
    modern = ask(s, "getValidityProof", {"newAddressesWithTrees": with_trees(fresh(1))})
    assert ask(s, "getValidityProof", {"newAddresses": [fresh(1)]}) == modern


def test_the_spec_form_carries_integers_and_tree_infos(s: Scenario) -> None:
    hashes = live_hashes(s, 2)
    params = {"hashes": hashes, "newAddressesWithTrees": with_trees(fresh(3))}
    wire, spec = ask(s, "getValidityProof", params), ask(s, "getValidityProof", params, SPEC)
    assert "merkleTrees" not in spec
    assert spec["roots"] == [int.from_bytes(b58decode(r), "big") for r in wire["roots"]]
    assert spec["leaves"] == [int.from_bytes(b58decode(r), "big") for r in wire["leaves"]]
    assert [{key: info[key] for key in ("tree", "treeType", "rootIndex", "cpiContext")} for info in spec["treeInfos"]] \
        == [{"tree": t, "treeType": kind, "rootIndex": i, "cpiContext": None}  # Light's TreeType: state v1, address v1
            for t, kind, i in zip(wire["merkleTrees"], [1, 1, 2], wire["rootIndices"], strict=True)]
    assert all(isinstance(info["queue"], str) and info["queue"] != info["tree"] for info in spec["treeInfos"])
    assert spec["proveByIndices"] == [False] * 3
    assert spec["compressedProof"] == wire["compressedProof"]


def test_compressed_proofs_depend_on_the_inputs(s: Scenario) -> None:
    one, two = live_hashes(s, 2)
    first = ask(s, "getValidityProof", {"hashes": [one]})["compressedProof"]
    assert ask(s, "getValidityProof", {"hashes": [one]})["compressedProof"] == first
    assert ask(s, "getValidityProof", {"hashes": [two]})["compressedProof"] != first


@pytest.mark.parametrize("hashes,addresses", [(0, 0), (5, 0), (6, 0), (7, 0), (9, 0), (0, 3), (8, 1), (5, 1),
                                              (1, 3)])
def test_counts_outside_the_circuits_are_invalid_params(s: Scenario, hashes: int, addresses: int) -> None:
    params: dict = {"hashes": live_hashes(s, hashes)}
    if addresses:
        params["newAddressesWithTrees"] = with_trees(*(fresh(i) for i in range(addresses)))
    error = fail(s, "getValidityProof", params)
    assert error.code == INVALID_PARAMS and "Invalid params" in error.message


def test_an_empty_list_reads_as_absent(s: Scenario) -> None:
    """Ambiguity empty-address-list, observed reading `same-as-absent`: [] is no list at all (the official
    client sends `newAddressesWithTrees: []` beside the hashes of every account-only proof)."""
    hashes, news = live_hashes(s, 1), with_trees(fresh(0))
    same = [({"hashes": hashes, "newAddressesWithTrees": []}, {"hashes": hashes}),
            ({"hashes": hashes, "newAddresses": [], "newAddressesWithTrees": []}, {"hashes": hashes}),
            ({"hashes": [], "newAddressesWithTrees": news}, {"newAddressesWithTrees": news}),
            ({"newAddresses": [], "newAddressesWithTrees": news}, {"newAddressesWithTrees": news}),
            ({"newAddresses": [fresh(0)], "newAddressesWithTrees": []}, {"newAddressesWithTrees": news})]
    for with_empty, without in same:
        assert ask(s, "getValidityProof", with_empty) == ask(s, "getValidityProof", without), with_empty


@pytest.mark.parametrize("params", [{}, {"hashes": []}, {"hashes": [], "newAddressesWithTrees": []},
                                    {"hashes": [], "newAddresses": [], "newAddressesWithTrees": []}])
def test_nothing_to_prove_is_invalid_params(s: Scenario, params: dict) -> None:
    """Observed practice fails only when every list is empty or absent."""
    error = fail(s, "getValidityProof", params)
    assert error.code == INVALID_PARAMS and "no hashes and no new addresses" in error.message


def test_the_counts_come_from_the_contract(contract) -> None:
    method = contract.method("getValidityProof")
    assert method.limit_for("hashes").counts == (1, 2, 3, 4, 8)
    assert method.observed["combined_max"] == {"hashes": 4, "newAddressesWithTrees": 2}


@pytest.mark.parametrize("name,words", [("c2", "consumed"), ("t3", "consumed"), (None, "does not exist")])
def test_unknown_or_consumed_accounts_are_record_not_found(s: Scenario, name, words: str) -> None:
    text = b58encode(s.labels[name]) if name else b58encode(bytes(32))
    error = fail(s, "getValidityProof", {"hashes": [live_hashes(s, 1)[0], text]})
    assert error.code == SERVER_ERROR and error.message.startswith("Record Not Found:") and words in error.message


def test_address_errors(s: Scenario) -> None:
    taken = b58encode(s.ledger.account(s.labels["r2"]).address)
    error = fail(s, "getValidityProof", {"newAddressesWithTrees": with_trees(taken)})
    assert error.code == SERVER_ERROR and "already exists" in error.message
    other_tree = [{"address": fresh(1), "tree": b58encode(bytes(32))}]
    assert "not indexed" in fail(s, "getValidityProof", {"newAddressesWithTrees": other_tree}).message
    both = {"newAddresses": [fresh(1)], "newAddressesWithTrees": with_trees(fresh(2))}
    assert fail(s, "getValidityProof", both).code == SERVER_ERROR


def test_a_failing_prover_is_a_server_error(s: Scenario) -> None:
    with socket.socket() as probe:  # a loopback port with nothing listening
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    options = ServerOptions(prover_url=f"http://127.0.0.1:{port}")
    error = fail(s, "getValidityProof", {"hashes": live_hashes(s, 1)}, options)
    assert error.code == SERVER_ERROR and "rover" in error.message


def as_proof(item: dict) -> NonInclusionProof:
    def value(text: str) -> int:
        return int.from_bytes(b58decode(text, length=32), "big")

    return NonInclusionProof(
        value=value(item["address"]), low_value=value(item["lowerRangeAddress"]),
        low_next_index=item["nextIndex"], low_next_value=value(item["higherRangeAddress"]),
        low_leaf_index=item["lowElementLeafIndex"], path=tuple(b58decode(p) for p in item["proof"]),
        root=b58decode(item["root"]), root_seq=item["rootSeq"],
    )


def test_new_address_proofs_verify_and_bracket_the_address(s: Scenario) -> None:
    addresses = [fresh(i) for i in range(50)]
    items = ask(s, "getMultipleNewAddressProofs", addresses)
    assert [i["address"] for i in items] == addresses
    for item in items:
        proof = as_proof(item)
        assert verify_non_inclusion(proof)
        assert proof.low_value < proof.value < proof.low_next_value
        assert len(item["proof"]) == 26 and item["merkleTree"] == TREE
        assert item["rootSeq"] == s.ledger.address_tree.seq


def test_a_fresh_address_tree_answers_the_sentinel_range() -> None:
    empty = open_scenario("empty")
    (item,) = ask(empty, "getMultipleNewAddressProofs", [fresh(0)])
    assert item["lowerRangeAddress"] == "11111111111111111111111111111111"
    assert item["higherRangeAddress"] == b58encode(HIGHEST_ADDRESS_PLUS_ONE.to_bytes(32, "big"))
    assert (item["nextIndex"], item["lowElementLeafIndex"], item["rootSeq"]) == (1, 0, 3)
    assert item["root"] == "3FrGzyXtjqjnukHDS2M5oyVj8tMVcHSahcHpWBGR5MHY"


def test_new_address_proof_errors(s: Scenario, contract) -> None:
    maximum = contract.method("getMultipleNewAddressProofs").observed["max_addresses"]
    assert fail(s, "getMultipleNewAddressProofs", [fresh(i) for i in range(maximum + 1)]).code == INVALID_PARAMS
    taken = b58encode(s.ledger.account(s.labels["c3"]).address)  # closed, but addresses stay taken
    error = fail(s, "getMultipleNewAddressProofs", [fresh(1), taken])
    assert error.code == SERVER_ERROR and taken in error.message
    too_big = b58encode(b"\x01" + bytes(31))
    assert fail(s, "getMultipleNewAddressProofs", [too_big]).code == SERVER_ERROR
    assert ask(s, "getMultipleNewAddressProofs", []) == []
