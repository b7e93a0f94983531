"""Ingestion of real transactions: clear errors that name the transaction, nothing half-applied,
forester events, failed and voting transactions, and the CLI over transaction files."""

from __future__ import annotations

import base64
import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest
from csi_conformance.groundwork.base58 import b58decode, b58encode
from csi_conformance.groundwork.errors import ConfigError
from csi_conformance.groundwork.jsonio import loads
from csi_conformance.ledger_crypto import ZERO_HASHES, element_leaf, fold_path
from csi_conformance.ledger_ingest import (
    Block,
    DecodedTransaction,
    IngestError,
    Instruction,
    LedgerSource,
    decode_transaction,
    read_paths,
    transaction_changes,
)
from csi_conformance.ledger_ingest.events import _INDEXED_TREE_EVENT, _NULLIFIER_EVENT, EventError, parse_token_data
from csi_conformance.ledger_ingest.recognize import ACCOUNT_COMPRESSION_PROGRAM_ID, NOOP_PROGRAM_ID, VOTE_PROGRAM_ID
from csi_conformance.reference_server.export import EXPORT_SCHEMA_PATH
from csi_conformance.reference_server.ingest import ingest_source, ledger_from_blocks
from csi_conformance.reference_server.ledger import DEFAULT_ADDRESS_TREE, DEFAULT_STATE_TREE
from csi_conformance.reference_server.ledger_native import NativeLedger
from csi_conformance.reference_server.methods import call
from csi_conformance.reference_server.options import ServerOptions
from csi_conformance.schema import Validator

from tests.ledger_ingest.test_photon_replay import MINT, TRANSACTIONS, TRANSFER_1

CSI = Path(sys.executable).with_name("csi")
BOB = "EU57rQxcmFhJ24ApVdUy3y4MxFXcTUN3uiVeWvGgtWXu"


def raw(signature: str) -> dict:
    return loads((TRANSACTIONS / signature).read_text(encoding="utf-8"))


def noop_event(result: dict) -> dict:
    """The inner instruction of the noop program (the event) in a fixture transaction."""
    return result["meta"]["innerInstructions"][0]["instructions"][-1]


def state(ledger: NativeLedger) -> tuple:
    """Everything a failed apply must leave as it was."""
    tree = ledger.state_trees[DEFAULT_STATE_TREE]
    return (tree.root, tree.seq, tree.next_index, len(ledger.accounts), len(ledger.transactions),
            tuple(ledger.signatures.keys("all")), ledger.indexed_slot,
            tuple(a.closed_by for a in ledger.accounts.values()))


# -------------------------------------------------------------------------------- decode errors


def test_truncated_transaction_bytes_name_the_signature() -> None:
    result = raw(MINT)
    payload = base64.b64decode(result["transaction"][0])
    result["transaction"][0] = base64.b64encode(payload[:200]).decode()
    with pytest.raises(IngestError) as caught:
        decode_transaction(result)
    assert MINT in str(caught.value) and "cannot decode the transaction bytes" in str(caught.value)


def test_garbled_event_names_the_signature_and_the_layout() -> None:
    from csi_conformance.groundwork.base58 import b58decode as decode58

    result = raw(TRANSFER_1)
    event = noop_event(result)
    event["data"] = b58encode(decode58(event["data"])[:40])
    with pytest.raises(IngestError) as caught:
        transaction_changes(decode_transaction(result))
    message = str(caught.value)
    assert TRANSFER_1 in message and "PublicTransactionEvent cannot be read" in message


def test_transaction_not_in_base64_is_refused() -> None:
    result = {**raw(MINT), "transaction": {"message": {}}}
    with pytest.raises(IngestError, match="base64"):
        decode_transaction(result, signature_hint=MINT)


def test_a_folder_with_one_bad_file_builds_no_ledger(tmp_path: Path) -> None:
    for name in (MINT, TRANSFER_1):
        (tmp_path / name).write_text((TRANSACTIONS / name).read_text(encoding="utf-8"), encoding="utf-8")
    broken = raw(TRANSFER_1)
    noop_event(broken)["data"] = "1"
    (tmp_path / TRANSFER_1).write_text(json.dumps(broken), encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        ingest_source(LedgerSource.files([tmp_path]))
    assert TRANSFER_1 in str(caught.value)


def test_token_data_must_consume_its_bytes_exactly() -> None:
    token = bytes(32) + bytes(32) + (5).to_bytes(8, "little") + b"\0\0\0"
    assert parse_token_data(token).amount == 5
    with pytest.raises(EventError, match="left over"):
        parse_token_data(token + b"\0")
    with pytest.raises(EventError, match="state"):
        parse_token_data(token[:-2] + b"\x07\0")


# -------------------------------------------------------------------------------- atomic apply


def fixture_ledger(*signatures: str) -> NativeLedger:
    return ledger_from_blocks(read_paths([TRANSACTIONS / s for s in signatures]))


def test_a_transaction_applied_twice_is_refused_and_changes_nothing() -> None:
    ledger = fixture_ledger(MINT, TRANSFER_1)
    before = state(ledger)
    again = transaction_changes(decode_transaction(raw(TRANSFER_1)))
    with pytest.raises(ValueError, match="already applied"):
        ledger.apply_native(again)
    renamed = copy.copy(again)
    object.__setattr__(renamed, "signature", bytes(64))
    with pytest.raises(ValueError, match=r"already exists|already closed"):
        ledger.apply_native(renamed)
    assert state(ledger) == before


def test_a_slot_going_backwards_is_refused() -> None:
    ledger = fixture_ledger(TRANSFER_1)
    with pytest.raises(ValueError, match="goes backwards"):
        ledger.apply_native(transaction_changes(decode_transaction(raw(MINT))))


def test_unknown_inputs_are_counted_not_applied() -> None:
    ledger = fixture_ledger(TRANSFER_1)  # spends the mint's output, which this ledger never saw
    assert ledger.unknown_inputs == 1
    answer = call(ledger, "getCompressedTokenBalancesByOwner", {"owner": BOB}, ServerOptions())
    assert answer["value"]["token_balances"][0]["balance"] == 300


# -------------------------------------------------------------------------------- forester, failed, votes


def synthetic(groups: list[list[tuple[bytes, bytes]]], *, slot: int = 50, error: str | None = None,
              signature: bytes = b"\x07" * 64) -> DecodedTransaction:
    return DecodedTransaction(signature, slot, 1_700_000_000, error, (),
                              tuple(tuple(Instruction(p, (), d) for p, d in group) for group in groups))


def forester(data: bytes, **kwargs: object) -> DecodedTransaction:
    return synthetic([[(ACCOUNT_COMPRESSION_PROGRAM_ID, b""), (NOOP_PROGRAM_ID, data)]], **kwargs)


def test_a_nullifier_event_zeroes_the_leaf_at_its_seq() -> None:
    ledger = fixture_ledger(MINT, TRANSFER_1)
    tree = ledger.state_trees[DEFAULT_STATE_TREE]
    assert tree.seq == 3
    data = b"\x01" + _NULLIFIER_EVENT.build({"id": DEFAULT_STATE_TREE, "nullified_leaves_indices": [0], "seq": 4})
    changes = transaction_changes(forester(data))
    assert changes.uses_compression and [(n.leaf_index, n.seq) for n in changes.nullified] == [(0, 4)]
    ledger.apply_native(changes)
    assert tree.leaf(0) == bytes(32) and tree.seq == 4
    assert fold_path(tree.leaf(1), 1, tree.proof(1)) == tree.root
    latest = call(ledger, "getLatestCompressionSignatures", {}, ServerOptions())["value"]["items"]
    assert latest[0]["signature"] == b58encode(b"\x07" * 64)
    # an older write to the same leaf is ignored: a leaf keeps its newest seq
    stale = b"\x01" + _NULLIFIER_EVENT.build({"id": DEFAULT_STATE_TREE, "nullified_leaves_indices": [1], "seq": 1})
    ledger.apply_native(transaction_changes(forester(stale, signature=b"\x08" * 64, slot=51)))
    assert tree.leaf(1) != bytes(32) and tree.seq == 4


def test_an_indexed_tree_event_writes_address_elements() -> None:
    ledger = NativeLedger()
    value = 12345
    highest = 2**248 - 1

    def element(v: int, next_index: int, next_value: int, index: int) -> dict:
        return {"value": v.to_bytes(32, "big"), "next_index": next_index,
                "next_value": next_value.to_bytes(32, "big"), "index": index}

    update = {"new_low_element": element(0, 2, value, 0), "new_low_element_hash": element_leaf(0, 2, value),
              "new_high_element": element(value, 1, highest, 2),
              "new_high_element_hash": element_leaf(value, 1, highest)}
    data = b"\x02" + _INDEXED_TREE_EVENT.build({"id": DEFAULT_ADDRESS_TREE, "updates": [update], "seq": 3})
    ledger.apply_native(transaction_changes(forester(data)))
    tree = ledger.address_tree
    assert value in tree and tree.seq == 4 and tree.element(2) == (value, 1, highest)
    proof = tree.non_inclusion_proof(value + 1)
    assert (proof.low_value, proof.low_next_value) == (value, highest)
    wrong = {**update, "new_high_element_hash": ZERO_HASHES[1]}
    bad = b"\x02" + _INDEXED_TREE_EVENT.build({"id": DEFAULT_ADDRESS_TREE, "updates": [wrong], "seq": 5})
    before = (tree.root, tree.seq)
    with pytest.raises(ValueError, match="Poseidon"):
        ledger.apply_native(transaction_changes(forester(bad, signature=b"\x09" * 64)))
    assert (tree.root, tree.seq) == before


def test_a_changelog_event_is_an_error_naming_the_transaction() -> None:
    with pytest.raises(IngestError, match="V1"):
        transaction_changes(forester(b"\x00" + bytes(40)))


def test_failed_and_plain_transactions_are_listed_only_as_non_voting() -> None:
    ledger = NativeLedger()
    failed = transaction_changes(forester(b"garbage", error='{"InstructionError":[0,{"Custom":1}]}'))
    plain = transaction_changes(synthetic([[(bytes(32), b"")]], signature=b"\x05" * 64))
    vote = transaction_changes(synthetic([[(VOTE_PROGRAM_ID, b"")]], signature=b"\x06" * 64, slot=60))
    assert failed.uses_compression and not failed.opened  # a failed transaction's events are never read
    for tx in (failed, plain, vote):
        ledger.apply_native(tx)
    non_voting = call(ledger, "getLatestNonVotingSignatures", {}, ServerOptions())["value"]["items"]
    assert {item["signature"]: item["error"] for item in non_voting} == {
        b58encode(b"\x07" * 64): '{"InstructionError":[0,{"Custom":1}]}', b58encode(b"\x05" * 64): None}
    assert call(ledger, "getLatestCompressionSignatures", {}, ServerOptions())["value"]["items"] == []
    assert ledger.indexed_slot == 60


def test_only_a_transaction_that_used_compression_has_compression_info() -> None:
    """Null for one without compression (7-N2, 4.2-N7), as for a failed or unknown one; a forester's
    transaction used compression, so it answers its (empty) lists."""
    ledger = NativeLedger()
    failed = transaction_changes(forester(b"garbage", error='{"InstructionError":[0,{"Custom":1}]}'))
    plain = transaction_changes(synthetic([[(bytes(32), b"")]], signature=b"\x05" * 64))
    data = b"\x01" + _NULLIFIER_EVENT.build({"id": DEFAULT_STATE_TREE, "nullified_leaves_indices": [0], "seq": 1})
    nullifier = transaction_changes(forester(data, signature=b"\x06" * 64, slot=51))
    for tx in (failed, plain, nullifier):
        ledger.apply_native(tx)

    def info(signature: bytes) -> object:
        return call(ledger, "getTransactionWithCompressionInfo", {"signature": b58encode(signature)}, ServerOptions())

    assert info(b"\x05" * 64) is None and info(b"\x07" * 64) is None and info(b"\x04" * 64) is None
    answer = info(b"\x06" * 64)
    assert answer is not None and answer["compressionInfo"] == {"closedAccounts": [], "openedAccounts": []}


# -------------------------------------------------------------------------------- sources and CLI


def test_transactions_are_applied_in_slot_order_whatever_the_order_given() -> None:
    paths = [TRANSACTIONS / name for name in sorted(p.name for p in TRANSACTIONS.iterdir())]
    blocks = read_paths(list(reversed(paths)))
    assert [b.slot for b in blocks] == [40, 41, 42, 43]
    assert all(isinstance(b, Block) for b in blocks)


def test_a_block_file_needs_its_slot(tmp_path: Path) -> None:
    (tmp_path / "block.json").write_text('{"transactions": []}', encoding="utf-8")
    with pytest.raises(IngestError, match="does not say its slot"):
        read_paths([tmp_path / "block.json"])
    (tmp_path / "17").write_text('{"transactions": [], "blockTime": 5}', encoding="utf-8")
    assert [b.slot for b in read_paths([tmp_path / "17"])] == [17]


def test_scenario_export_of_transactions(tmp_path: Path) -> None:
    out = tmp_path / "export.json"
    done = subprocess.run([str(CSI), "scenario", "export", "--transactions", str(TRANSACTIONS), "-o", str(out)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    document = loads(out.read_text(encoding="utf-8"))
    assert Validator(json.loads(EXPORT_SCHEMA_PATH.read_text(encoding="utf-8"))).violations(document) == []
    assert document["stateTrees"][0]["root"] == "2wBDKLscN4SBNzNdVsHq17PVXycvM8n4LNiKzJrebqZ7"
    assert len(document["transactions"]) == 4 and len(document["accounts"]) == 7
    assert sum(account["live"] for account in document["accounts"]) == 4
    assert b58decode(document["accounts"][0]["hash"], length=32)


@pytest.mark.parametrize("holding", ["nothing", "notes", "nothing, beside a good folder"])
def test_serve_refuses_a_folder_with_nothing_to_read(holding: str, tmp_path: Path) -> None:
    """A wrong folder used to serve an empty ledger without a word; now it is one line naming it (exit 2)."""
    folder = tmp_path / "emptydir"
    folder.mkdir()
    if holding == "notes":
        (folder / "README.md").write_text("transactions go here\n", encoding="utf-8")
        (folder / ".hidden").write_text("{}", encoding="utf-8")
    given = [str(TRANSACTIONS), str(folder)] if "good" in holding else [str(folder)]
    done = subprocess.run([str(CSI), "serve", "--port", "0", "--prover", "none", "--transactions", *given],
                          capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert done.returncode == 2, done.stderr
    assert done.stderr.splitlines() == [
        f"csi: {folder}: no transaction or block file in this folder (it is empty, or holds only hidden files "
        "and notes such as .md, .txt or .yaml, which are not read)"]


def test_a_folder_holding_an_empty_block_is_read(tmp_path: Path) -> None:
    """A block without transactions is something found: it sets the slot, and is no error."""
    (tmp_path / "17").write_text('{"transactions": [], "blockTime": 5}', encoding="utf-8")
    ledger = ingest_source(LedgerSource.files([tmp_path])).ledger
    assert (ledger.indexed_slot, len(ledger.transactions)) == (17, 0)


def test_serve_refuses_both_sources() -> None:
    done = subprocess.run([str(CSI), "serve", "--transactions", str(TRANSACTIONS), "--ledger-rpc", "http://x",
                           "--slots", "1..2"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "give one ledger source: --transactions and --ledger-rpc name two" in done.stderr
