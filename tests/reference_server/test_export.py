"""`csi scenario export`: every derived value of a scenario, valid against its schema and checkable.

Checked independently of the export code: each account hash recomputes from the exported fields,
each prover path folds to its tree's root, each tree's root rebuilds from the exported leaves,
and the exported accounts are what the reference server answers.
"""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from csi_conformance.groundwork.base58 import b58decode, b58encode
from csi_conformance.groundwork.errors import ConfigError
from csi_conformance.groundwork.jsonio import loads
from csi_conformance.ledger_crypto import (
    HIGHEST_ADDRESS_PLUS_ONE,
    StateTree,
    account_hash,
    element_leaf,
    fold_path,
    hash_to_field,
)
from csi_conformance.reference_server.export import EXPORT_SCHEMA_PATH, export_document, export_scenario, write_export
from csi_conformance.reference_server.methods import call
from csi_conformance.reference_server.options import ServerOptions
from csi_conformance.reference_server.scenario import open_scenario, scenario_from_document
from csi_conformance.reference_server.wiring import bundled_reference
from csi_conformance.schema import Contract, Validator

CSI = Path(sys.executable).with_name("csi")
WIRE = ("hash", "lamports", "leafIndex", "owner", "slotCreated", "tree", "address", "data", "seq")


@pytest.fixture(scope="module")
def exported() -> dict:
    return export_scenario("default")


def _hex(value: str) -> bytes:
    return bytes.fromhex(value[2:])


def test_export_follows_its_schema(exported: dict) -> None:
    validator = Validator(json.loads(EXPORT_SCHEMA_PATH.read_text(encoding="utf-8")))
    assert validator.violations(exported) == []
    assert validator.violations(export_scenario("empty")) == []
    broken = {**exported, "accounts": [{**exported["accounts"][0], "hash": 5}]}
    assert validator.violations(broken)


def test_every_account_hash_recomputes(exported: dict) -> None:
    for account in exported["accounts"]:
        data = account["data"]
        expected = account_hash(
            owner=b58decode(account["owner"]), leaf_index=account["leafIndex"], tree=b58decode(account["tree"]),
            lamports=account["lamports"], address=b58decode(account["address"]) if account["address"] else None,
            discriminator=data["discriminator"] if data else None,
            data_hash=b58decode(data["dataHash"]) if data else None)
        assert b58encode(expected) == account["hash"], account["label"]


def test_every_path_folds_to_its_tree_root_and_every_root_rebuilds(exported: dict) -> None:
    trees = {tree["pubkey"]: tree for tree in exported["stateTrees"]}
    leaves: dict[str, dict[int, bytes]] = {key: {} for key in trees}
    for account in exported["accounts"]:
        inputs = account["proverInputs"]
        leaves[account["tree"]][account["leafIndex"]] = b58decode(account["hash"]) if account["live"] else bytes(32)
        if not account["live"]:
            assert inputs is None and account["closedBy"]
            continue
        assert inputs["pathIndex"] == account["leafIndex"] and _hex(inputs["leaf"]) == b58decode(account["hash"])
        root = fold_path(_hex(inputs["leaf"]), inputs["pathIndex"], [_hex(e) for e in inputs["pathElements"]])
        assert root == _hex(inputs["root"]) == b58decode(trees[account["tree"]]["root"])
    for key, tree in trees.items():
        rebuilt = StateTree()
        rebuilt.append_many([leaves[key][i] for i in range(tree["nextIndex"])])
        assert b58encode(rebuilt.root) == tree["root"] and tree["rootIndex"] == tree["seq"] % 2400


def test_address_tree_elements_link_in_order_and_rebuild_the_root(exported: dict) -> None:
    address_tree = exported["addressTree"]
    elements = address_tree["elements"]
    values = [int(e["value"], 16) for e in elements]
    assert values[:2] == [0, HIGHEST_ADDRESS_PLUS_ONE]
    for element in elements:
        value, next_value = int(element["value"], 16), int(element["nextValue"], 16)
        if value == HIGHEST_ADDRESS_PLUS_ONE:
            assert (element["nextIndex"], next_value) == (0, 0)
        else:
            assert next_value == min(v for v in values if v > value) == values[element["nextIndex"]]
        assert _hex(element["leaf"]) == element_leaf(value, element["nextIndex"], next_value)
    rebuilt = StateTree()
    rebuilt.append_many([_hex(e["leaf"]) for e in elements])
    assert b58encode(rebuilt.root) == address_tree["root"]
    addresses = {int.from_bytes(b58decode(a["address"]), "big") for a in exported["accounts"] if a["address"]}
    assert addresses <= set(values)


def test_transactions_name_the_accounts_they_opened_and_closed(exported: dict) -> None:
    accounts = {a["hash"]: a for a in exported["accounts"]}
    for tx in exported["transactions"]:
        if tx["error"] is not None:
            assert tx["opened"] == tx["closed"] == []
        for hash_ in tx["opened"]:
            assert accounts[hash_]["openedBy"] == tx["signature"] and accounts[hash_]["slotCreated"] == tx["slot"]
        for hash_ in tx["closed"]:
            assert accounts[hash_]["closedBy"] == tx["signature"] and not accounts[hash_]["live"]
        assert len(tx["postTokenBalances"]) == sum(1 for h in tx["opened"] if accounts[h]["tokenData"])


def test_export_is_what_the_reference_answers(exported: dict) -> None:
    ledger = open_scenario("default").ledger
    contract, options = Contract.default(), ServerOptions()
    for account in exported["accounts"]:
        answer = call(ledger, "getCompressedAccount", {"hash": account["hash"]}, options, contract)["value"]
        assert answer == ({key: account[key] for key in WIRE} if account["live"] else None)
    live = next(a for a in exported["accounts"] if a["live"])
    proof = call(ledger, "getValidityProof", {"hashes": [live["hash"]]}, options, contract)["value"]
    tree = next(t for t in exported["stateTrees"] if t["pubkey"] == live["tree"])
    assert proof["roots"] == [tree["root"]] and proof["rootIndices"] == [tree["rootIndex"]]
    assert call(ledger, "getIndexerSlot", None, options, contract) == exported["indexedSlot"]


def test_cli_writes_exact_integers(tmp_path: Path, exported: dict) -> None:
    out = tmp_path / "sub" / "default.json"
    done = subprocess.run([CSI, "scenario", "export", "-o", out], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    text = out.read_text(encoding="utf-8")
    assert "18446744073709551615" in text and "9007199254740993" in text
    assert loads(text) == exported
    done = subprocess.run([CSI, "scenario", "export", "--scenario", "nope", "-o", tmp_path / "x.json"],
                          capture_output=True, text=True)
    assert done.returncode == 2 and "no such scenario" in done.stderr and not (tmp_path / "x.json").exists()


def test_the_export_is_on_disk_before_it_replaces_the_old(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The kit's one atomic writer: flushed to disk, then renamed over the old export in one step."""
    calls: list[str] = []
    real_fsync, real_replace = os.fsync, os.replace
    monkeypatch.setattr(os, "fsync", lambda fd: (calls.append("fsync"), real_fsync(fd))[1])
    monkeypatch.setattr(os, "replace", lambda src, dst: (calls.append("replace"), real_replace(src, dst))[1])
    out = tmp_path / "sub" / "empty.json"
    write_export(export_scenario("empty"), out)
    assert calls == ["fsync", "replace"] and [p.name for p in out.parent.iterdir()] == ["empty.json"]
    assert loads(out.read_text(encoding="utf-8")) == export_scenario("empty")


# -- what a mirrored ledger gives that a scenario never derives ---------------------------------
def _document(**transaction: object) -> dict:
    return {"version": 1, "seed": "own", "keys": {"prog": {"seed": "prog"}},
            "transactions": [{"slot": 7, "open": [{"label": "a", "owner": "prog", "lamports": 3,
                                                   "data": {"discriminator": 4, "base64": "AQI="}}], **transaction}]}


def test_own_signature_and_data_hash_are_kept_and_exported() -> None:
    signature, data_hash = b58encode(bytes(range(64))), b58encode(bytes(31) + b"\x05")
    document = _document(signature=signature)
    document["transactions"][0]["open"][0]["data"]["dataHash"] = data_hash
    exported = export_document(scenario_from_document(document))
    account = exported["accounts"][0]
    assert exported["transactions"][0]["signature"] == signature == account["openedBy"]
    assert account["data"]["dataHash"] == data_hash
    default = export_document(scenario_from_document(_document()))["accounts"][0]
    assert default["data"]["dataHash"] == b58encode(hash_to_field(base64.b64decode("AQI=")))


@pytest.mark.parametrize(("change", "message"), [
    ({"signature": b58encode(bytes(range(1, 49)))}, "/transactions/0/signature: .*64 bytes"),
    ({"signature": "not-base58-0OIl" * 6}, "not a valid scenario"),
])
def test_a_bad_own_signature_is_refused(change: dict, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        scenario_from_document(_document(**change))


def test_a_repeated_signature_and_an_out_of_field_data_hash_are_refused() -> None:
    document = _document(signature=b58encode(bytes(range(64))))
    document["transactions"].append(dict(document["transactions"][0], open=[]))
    with pytest.raises(ConfigError, match="already applied"):
        scenario_from_document(document)
    document = _document()
    document["transactions"][0]["open"][0]["data"]["dataHash"] = b58encode(b"\xff" * 32)
    with pytest.raises(ConfigError, match="field modulus"):
        scenario_from_document(document)


def test_bundled_reference_serves_a_scenario_document() -> None:
    with bundled_reference(_document()) as url:
        answer = httpx.post(url, json={"jsonrpc": "2.0", "id": 1, "method": "getIndexerSlot"}).json()
    assert answer["result"] == 7
    with pytest.raises(ConfigError, match="scenario document"), bundled_reference({"version": 1}):
        pass
