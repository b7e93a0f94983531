"""Scenario files: the bundled ones, the format's schema, and errors that name the file and member."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from csi_conformance import reference_server
from csi_conformance.groundwork.base58 import b58encode
from csi_conformance.groundwork.errors import ConfigError
from csi_conformance.groundwork.jsonio import dumps
from csi_conformance.ledger_crypto import TOKEN_PROGRAM_ID
from csi_conformance.reference_server.ledger import DEFAULT_ADDRESS_TREE
from csi_conformance.reference_server.scenario import (
    derive_key,
    load_scenario,
    open_scenario,
    scenario_from_document,
    scenario_path,
)
from csi_conformance.reference_server.scenarios import SCENARIO_DIR, bundled_scenarios

U64_MAX = 2**64 - 1


@pytest.fixture(scope="module")
def default():
    return open_scenario("default")


def test_bundled_scenarios_live_beside_the_reference() -> None:
    assert Path(reference_server.__file__).parent / "scenarios" == SCENARIO_DIR
    assert scenario_path("default") == SCENARIO_DIR / "default.yaml"
    assert scenario_path("empty") == SCENARIO_DIR / "empty.yaml"
    assert bundled_scenarios() == ("default", "empty", "stale")


def test_empty_has_no_state() -> None:
    ledger = load_scenario("empty")
    assert ledger.accounts == {} and ledger.transactions == {}
    assert ledger.address_tree.seq == 3


def test_default_has_the_promised_variety(default) -> None:
    ledger, keys = default.ledger, default.keys
    live = [a for a in ledger.accounts.values() if not a.closed]
    assert len(ledger.by_owner.keys(keys["counter"])) == 12
    idle = keys["idle"]
    assert not any(idle in (a.owner, a.address, a.token and a.token.owner, a.token and a.token.delegate)
                   for a in ledger.accounts.values())
    assert {a.address is None for a in live} == {True, False}
    assert {a.data is None for a in live} == {True, False}
    tokens = [a for a in live if a.token is not None]
    assert all(a.owner == TOKEN_PROGRAM_ID for a in tokens)
    assert len({a.token.mint for a in tokens}) >= 3
    assert len(ledger.tokens_by_delegate.keys(keys["dave"])) >= 2
    assert any(a.token.state == "frozen" for a in tokens)
    assert any(a.token.tlv for a in tokens)
    assert any(a.token.amount > 2**53 for a in tokens) and any(a.lamports > 2**53 for a in live)
    assert max(a.token.amount for a in tokens) <= U64_MAX
    assert sum(a.closed for a in ledger.accounts.values()) >= 3
    assert sum(tx.error is not None for tx in ledger.transactions.values()) >= 2
    assert ledger.address_tree.seq > 3
    assert len({tx.slot for tx in ledger.transactions.values()}) >= 5
    assert len(ledger.state_trees) == 2
    assert 0 < ledger.tip_slot - ledger.indexed_slot <= 20


def test_named_keys_derive_from_the_scenario_seed(default) -> None:
    assert default.keys["alice"] == derive_key("csi-default", "alice")
    assert derive_key("csi-default", "alice") != derive_key("other", "alice")
    assert b58encode(default.keys["tree1"]) == "smt1NamzXdq4AMqS2fS2F1i5KTYPZRhoHgWx38d8WsT"
    assert default.ledger.address_tree_key == DEFAULT_ADDRESS_TREE


def test_loading_is_deterministic(default) -> None:
    again = open_scenario("default")
    assert again.labels == default.labels
    assert [t.root for t in again.ledger.state_trees.values()] == [t.root for t in default.ledger.state_trees.values()]


def write(tmp_path: Path, document, name: str = "s.yaml") -> Path:
    path = tmp_path / name
    path.write_text(dumps(document) if name.endswith(".json") else yaml.safe_dump(document))
    return path


BASE = {"version": 1, "seed": "t", "keys": {"o": {"seed": "o"}}}


def tx(*opens, close=None, slot=1, **extra):
    entry = {"slot": slot, "open": list(opens), **extra}
    if close:
        entry["close"] = close
    return entry


@pytest.mark.parametrize("transactions,where", [
    ([tx({"label": "a", "owner": "o", "hash": "x"})], "/transactions/0/open/0"),
    ([{"open": []}], "/transactions/0"),
    ([tx({"label": "a", "owner": "o", "lamports": 2**64})], "/transactions/0/open/0/lamports"),
    ([tx({"label": "a", "owner": "o", "token": {"mint": "o", "owner": "o", "amount": 1}})], "/transactions/0/open/0"),
    ([tx({"label": "a", "owner": "o", "data": {"discriminator": 1, "base64": "!!"}})], "/transactions/0/open/0/data"),
])
def test_schema_violations_name_the_file_and_the_member(tmp_path: Path, transactions, where: str) -> None:
    path = write(tmp_path, {**BASE, "transactions": transactions})
    with pytest.raises(ConfigError) as caught:
        load_scenario(str(path))
    assert str(path) in str(caught.value) and where in str(caught.value)


@pytest.mark.parametrize("transactions,where,words", [
    ([tx({"label": "a", "owner": "nobody"})], "/transactions/0/open/0/owner", "neither a declared key"),
    ([tx(close=["a"])], "/transactions/0/close/0", "no account labelled"),
    ([tx({"label": "a", "owner": "o"}), tx({"label": "a", "owner": "o"})], "/transactions/1/open/0/label", "twice"),
    ([tx({"label": "a", "owner": "o"}), tx(close=["a"]), tx(close=["a"])], "/transactions/2", "already closed"),
    ([tx({"label": "a", "owner": "o", "address": {"seed": ["s"]}}),
      tx({"label": "b", "owner": "o", "address": {"seed": ["s"]}})], "/transactions/1", "already exists"),
    ([tx({"label": "a", "owner": "o", "address": {"seed": ["s"]}}),
      tx({"label": "b", "owner": "o", "address": {"of": "a"}})],
     "/transactions/1/open/0/address", "closed by the same"),
    ([tx({"label": "a", "owner": "o"}, slot=5), tx({"label": "b", "owner": "o"}, slot=4)], "/transactions/1",
     "goes backwards"),
    ([tx({"label": "a", "owner": "o"}, error="boom"), tx(close=["a"])], "/transactions/1/close/0", "failed"),
])
def test_ledger_rule_violations_name_the_file_and_the_member(tmp_path: Path, transactions, where, words) -> None:
    path = write(tmp_path, {**BASE, "transactions": transactions})
    with pytest.raises(ConfigError) as caught:
        load_scenario(str(path))
    message = str(caught.value)
    assert str(path) in message and f"{where}:" in message and words in message


def test_tip_below_the_indexed_slot_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, {**BASE, "indexed_slot": 10, "tip_slot": 9})
    with pytest.raises(ConfigError, match="/tip_slot"):
        load_scenario(str(path))


def test_unknown_names_and_unreadable_files_are_config_errors(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no bundled scenario"):
        load_scenario("no-such-scenario")
    broken = tmp_path / "broken.yaml"
    broken.write_text("version: [1\n")
    with pytest.raises(ConfigError, match=r"broken\.yaml"):
        load_scenario(str(broken))


def test_json_scenarios_keep_big_integers_exact(tmp_path: Path) -> None:
    document = {**BASE, "transactions": [tx(
        {"label": "a", "owner": "o", "lamports": U64_MAX, "data": {"discriminator": 2**53 + 1, "base64": ""}},
        {"label": "t", "token": {"mint": "o", "owner": "o", "amount": 2**53 + 1}},
    )]}
    scenario = open_scenario(str(write(tmp_path, document, "s.json")))
    account = scenario.ledger.account(scenario.labels["a"])
    assert (account.lamports, account.discriminator) == (U64_MAX, 2**53 + 1)
    assert scenario.ledger.account(scenario.labels["t"]).token.amount == 2**53 + 1


def test_documents_load_without_a_file() -> None:
    scenario = scenario_from_document({**BASE, "transactions": [tx({"label": "a", "owner": "o", "lamports": 3})]})
    assert scenario.ledger.lamports_of_owner(scenario.keys["o"]) == 3
    assert scenario.ledger.transactions[next(iter(scenario.ledger.transactions))].block_time == 1_700_000_000
