"""Ingestion of today's ledger: batched (v2) trees and the newer system program, read from Photon HEAD's
real test transactions (`fixtures/photon-head/`, Apache-2.0, see its README).

Both event paths: user transactions through account compression's `insert_into_queues` and the system
instruction that executed it, forester batch events through the noop. Every transaction of every folder
is read; the counts per kind are those of an independent decoding of the same folders (pinned below per
folder); the worked examples are checked field by field; every hash the chain wrote is recomputed where
the kit can; and what cannot be read is refused naming the transaction.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from functools import cache
from pathlib import Path

import pytest
from csi_conformance.groundwork.base58 import b58encode
from csi_conformance.groundwork.jsonio import loads
from csi_conformance.ledger_crypto import account_hash, poseidon
from csi_conformance.ledger_ingest import (
    DecodedTransaction,
    LedgerTransaction,
    decode_transaction,
    read_paths,
    transaction_changes,
)
from csi_conformance.ledger_ingest.events import parse_merkle_tree_event
from csi_conformance.ledger_ingest.queues import parse_insert_into_queues
from csi_conformance.ledger_ingest.recognize import (
    QueueInsertion,
    recognize,
)
from csi_conformance.ledger_ingest.system import parse_system_instruction

from tests.ledger_ingest.test_photon_replay import FIXTURES as V1_FIXTURES

_COPY = Path(__file__).with_name("fixtures") / "photon-head"
_SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "fixtures" / "photon-head"
FIXTURES = _COPY if _COPY.is_dir() else _SHARED
TRANSACTIONS = FIXTURES / "transactions"
MANIFEST = _COPY.with_name("photon-head.sha256")

TREE = "HLKs5NJ8FXkJg8BrzJt56adFYYuwg5etzDtBbQYTsixu"
QUEUE = "6L7SzhYB3anwEQ9cphpJ1U7Scwj57bx2xueReg7R9cKU"
ADDRESS_TREE = "EzKE84aVTkCUhDHLELqyJaq1Y7UVVmqxXqZjVHwHY3rK"
SMT1 = "smt1NamzXdq4AMqS2fS2F1i5KTYPZRhoHgWx38d8WsT"

SURVEY = {
    "batched_tree_transactions": {"insert_into_queues": 100, "invoke": 100, "with nullifiers": 50,
                                  "append": 10, "nullify": 5},
    "batch_append_nullify": {"insert_into_queues": 41, "invoke": 40, "invoke_cpi": 1, "with nullifiers": 20,
                             "append": 3, "nullify": 1},
    "batch_append_spent": {"insert_into_queues": 31, "invoke": 30, "invoke_cpi": 1, "with nullifiers": 20,
                           "append": 3, "nullify": 2},
    "batched_address_transactions": {"insert_into_queues": 50, "invoke_cpi": 50, "with addresses": 50,
                                     "address_append": 5},
    "batched_address_2_transactions": {"insert_into_queues": 25, "invoke_cpi_with_read_only": 25,
                                       "with addresses": 25, "address_append": 5},
    "batched_tree_token_transactions": {"insert_into_queues": 2, "invoke_cpi_with_read_only": 1,
                                        "with nullifiers": 1, "invoke_cpi": 1},
    "four_cpi_events": {"insert_into_queues": 4, "invoke_cpi_with_read_only": 4},
    "index_compress_and_close_with_tlv": {"insert_into_queues": 1, "invoke_cpi_with_read_only": 1},
}
"""An independent decoding of Photon's eight v2 test folders (a plain-Python borsh reader, not this kit),
per folder: `insert_into_queues` instructions, the system format that executed each, how many carry
nullifiers / addresses, and the batch events. Totals over the eight: insert_into_queues 254, invoke 170,
invoke_cpi 53, invoke_cpi_with_read_only 31; BatchAppend 16, BatchNullify 8, BatchAddressAppend 10."""


# -------------------------------------------------------------------------------- helpers


def _digests(folder: Path) -> dict[str, str]:
    return {f"./{p.relative_to(folder)}": hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def raw(folder: str, signature: str) -> dict:
    return loads((TRANSACTIONS / folder / signature).read_text(encoding="utf-8"))


def changes(result: dict) -> LedgerTransaction:
    return transaction_changes(decode_transaction(result))


@cache
def folder_transactions(folder: str) -> tuple[tuple[DecodedTransaction, LedgerTransaction], ...]:
    """Every transaction of a folder, decoded and read, in slot order."""
    decoded = [decode_transaction(loads(path.read_text(encoding="utf-8")), source=path.name)
               for path in sorted((TRANSACTIONS / folder).iterdir())]
    decoded.sort(key=lambda tx: tx.slot)
    return tuple((tx, transaction_changes(tx, source=folder)) for tx in decoded)


def kinds(tx: DecodedTransaction) -> Counter:
    """What the recogniser found in one transaction, counted as the survey counts."""
    found: Counter = Counter()
    for kind, event in recognize(tx).events:
        if isinstance(event, QueueInsertion):
            found["insert_into_queues"] += 1
            found[parse_system_instruction(event.system_data).kind] += 1
        elif kind == "tree":
            found[getattr(parse_merkle_tree_event(event), "kind", "v1 tree event")] += 1
        else:
            found["noop user event"] += 1
    return found


def inner_instructions(result: dict, program: bytes) -> list[dict]:
    """The inner instructions of `program` in a raw transaction, as its JSON holds them (editable)."""
    keys = decode_transaction(result).account_keys
    return [item for group in result["meta"]["innerInstructions"] for item in group["instructions"]
            if keys[item["programIdIndex"]] == program]


def chain(hashes: list[bytes]) -> bytes:
    """Light's hash chain: zero for none, the hash itself for one, else Poseidon folded left."""
    if not hashes:
        return bytes(32)
    value = hashes[0]
    for item in hashes[1:]:
        value = poseidon(value, item)
    return value


# -------------------------------------------------------------------------------- fixtures


def test_the_copied_fixtures_are_the_ones_recorded() -> None:
    """The copy matches its committed sums file for file, and the shared folder too where it sits beside
    the checkout (a clone without it checks the copy only)."""
    recorded = dict(reversed(line.split()) for line in MANIFEST.read_text(encoding="utf-8").splitlines())
    assert {name.split("/")[1] for name in recorded} == {"README.md", "blocks", "transactions"}
    assert _digests(_COPY) == recorded
    if _SHARED.is_dir():
        assert _digests(_SHARED) == recorded, f"{_SHARED} differs from the committed copy"


# -------------------------------------------------------------------------------- every transaction


FOLDERS = sorted(path.name for path in TRANSACTIONS.iterdir())


def test_the_folders_are_the_seven_of_the_readme() -> None:
    assert FOLDERS == ["batch_append_nullify", "batched_address_transactions", "batched_tree_token_transactions",
                       "batched_tree_transactions", "four_cpi_events", "index_compress_and_close_with_tlv",
                       "index_transaction"]


@pytest.mark.parametrize("folder", FOLDERS)
def test_every_transaction_is_read_and_its_kinds_equal_the_survey(folder: str) -> None:
    counts: Counter = Counter()
    for tx, read in folder_transactions(folder):
        assert read.error is None and read.uses_compression, tx.signature_text
        found = kinds(tx)
        counts.update(found)
        if any(isinstance(event, QueueInsertion) and parse_insert_has(event, "nullifiers")
               for _, event in recognize(tx).events):
            counts["with nullifiers"] += 1
        if read.queued_addresses:
            counts["with addresses"] += 1
    if folder == "index_transaction":  # not among the survey's folders: a v1 user event (older system program)
        assert counts == {"noop user event": 1}
    else:
        assert counts == SURVEY[folder]


def parse_insert_has(event: QueueInsertion, what: str) -> bool:
    return bool(getattr(parse_insert_into_queues(event.data, event.accounts), what))


def test_the_totals_of_our_folders_are_the_survey_less_its_two_missing_folders() -> None:
    everything = sum((Counter(line) for line in SURVEY.values()), Counter())
    assert (everything["insert_into_queues"], everything["invoke"], everything["invoke_cpi"],
            everything["invoke_cpi_with_read_only"]) == (254, 170, 53, 31)
    assert (everything["append"], everything["nullify"], everything["address_append"]) == (16, 8, 10)
    ours = sum((kinds(tx) for folder in FOLDERS for tx, _ in folder_transactions(folder)), Counter())
    missing = ("batch_append_spent", "batched_address_2_transactions")
    expected = everything - sum((Counter(SURVEY[name]) for name in missing), Counter())
    for key in ("insert_into_queues", "invoke", "invoke_cpi", "invoke_cpi_with_read_only", "append", "nullify",
                "address_append"):
        assert ours[key] == expected[key], key
    assert (ours["insert_into_queues"], ours["append"], ours["nullify"], ours["address_append"]) == (198, 13, 6, 5)


def test_the_block_of_the_tlv_folder_reads_like_its_transaction() -> None:
    [block] = read_paths([FIXTURES / "blocks" / "index_compress_and_close_with_tlv"])
    [(_, alone)] = folder_transactions("index_compress_and_close_with_tlv")
    [read] = [tx for tx in block.transactions if tx.signature == alone.signature]
    assert read.opened == alone.opened and len(read.opened) == 5
    assert {b58encode(o.tree) for o in read.opened} == {"bmt2UxoBxB9xWev4BkLvkGdapsz6sZGkzViPNph7VFi"}
    assert all(o.discriminator == 4 << 56 and o.seq is None for o in read.opened)  # SHA-flat token data


# -------------------------------------------------------------------------------- worked examples


def test_a_compression_into_a_batched_queue() -> None:
    """The first compression (slot 83): leaf 0 of the output queue, no input, hence no tx_hash."""
    [(_, read)] = [(tx, r) for tx, r in folder_transactions("batched_tree_transactions")
                   if r.opened and r.opened[0].leaf_index == 0]
    assert read.signature_text.startswith("35j5eK95") and read.slot == 83
    assert read.closed == () and read.queued_nullifiers == ()
    [output] = read.opened
    assert (b58encode(output.owner), output.lamports, b58encode(output.tree), b58encode(output.queue),
            output.seq, output.address, output.data) == (
        "D9FNCdaWLGdvmGu32ePKT3ToUVPuKNPQgM9MfxzDFKJv", 1_000_000, TREE, QUEUE, None, None, None)


def test_a_transfer_by_index() -> None:
    signature = "1Ws3mCvi3peBn1BHkfs4zjdnddFcpyE7kPF35YNMkzDW8UXEbTh4SiHgPo7phVjcDY1wc1G5RUym2b4JntKG66U"
    read = changes(raw("batched_tree_transactions", signature))
    assert read.slot == 149
    [spent] = read.closed
    assert spent.hex().startswith("1184d80f") and spent.hex().endswith("3cf9")
    [queued] = read.queued_nullifiers
    assert (b58encode(queued.tree), queued.account_hash, queued.leaf_index, queued.prove_by_index) == (
        TREE, spent, 50, True)
    assert queued.tx_hash.hex().startswith("1b0a5209") and queued.tx_hash.hex().endswith("a8cb")
    assert queued.nullifier.hex().startswith("0110db60") and queued.nullifier.hex().endswith("1467")
    [output] = read.opened
    assert output.leaf_index == 51 and output.hash.hex().startswith("20083d96") and output.hash.hex().endswith("9809")
    assert (b58encode(output.tree), b58encode(output.queue), output.seq) == (TREE, QUEUE, None)
    assert (b58encode(output.owner), output.lamports) == ("1111111BTngbpkVTh3nGGdFdufHcG5TN7hXV6AfDy", 1_000_000)


@pytest.mark.parametrize(("folder", "signature", "expected"), [
    ("batched_tree_transactions",
     "vmAkSPuvbbzgU5iXj4zYyBKcU2Q7KMUdvyvNcsgbEWXHDuGedjUFSfyhKERzsmWp57LcjrRdjU2aZvzsBAEhqce",
     ("append", TREE, QUEUE, 0, 0, 10, 0, 10,
      "1304da4f7e8e57802895a79c934e0d009a5122a86eff814702b35bfa527633c3", 1, 1)),
    ("batched_tree_transactions",
     "5A1t94rx6qXBS6N2f69MXnjxahM2VXVbRwagUCo9uX6CU7wCFEfhnWr93EGbrJ4Ui3LZW2KejyuETeMusPuAsn6y",
     ("nullify", TREE, None, 0, 0, 10, 0, 10,
      "083b0dc100ff680dc1599bc668dbbca45fafe5bc4e6a176e1a335a9a27d32fd8", 11, 11)),
    ("batched_address_transactions",
     "5UdPAFvyr1u8EAkBepdSZotA6RNXAX87d2AhAK4hfLBbPRRHDRSXozzcSETNKLumjGZ8gYiB5L2kbyq642jQvnE9",
     ("address_append", ADDRESS_TREE, None, 0, 0, 10, 1, 11,
      "226aec5af8160896a8028b6298b4aab7c2f26c767a9a7efc7a04ec9006476dd6", 1, 1)),
], ids=["append", "nullify", "address_append"])
def test_batch_events(folder: str, signature: str, expected: tuple) -> None:
    read = changes(raw(folder, signature))
    assert read.opened == read.closed == read.queued_nullifiers == ()
    [event] = read.batch_updates
    assert (event.kind, b58encode(event.tree), event.queue and b58encode(event.queue), event.batch_index,
            event.zkp_batch_index, event.zkp_batch_size, event.old_next_index, event.new_next_index,
            event.new_root.hex(), event.root_index, event.seq) == expected


def test_a_new_address_in_the_batched_address_tree_with_a_v1_output() -> None:
    """The system program derives a v2 address as H2F(seed ‖ tree ‖ program id); its output goes to the v1
    tree smt1 through the same insert_into_queues, with the seq a v1 noop event would have given it."""
    signature = "2tAThS9uuerGLc6SuNAJmjMQy52eQvbgete32WkmTBq69SePyXn1ohNM3TUdFYLcZQxrqditCLMSxcMtAwj82SWS"
    read = changes(raw("batched_address_transactions", signature))
    [queued] = read.queued_addresses
    assert (b58encode(queued.tree), queued.queue_index, queued.address.hex()) == (
        ADDRESS_TREE, 0, "000f8ee15579e49fa6a914b0e379661d1b9577881c1af1852c636ff8d293e7a9")
    [output] = read.opened
    assert (b58encode(output.tree), output.queue, output.leaf_index, output.seq, output.address) == (
        SMT1, None, 0, 1, queued.address)
    assert b58encode(output.owner) == "FNt7byTHev1k5x2cXZLBr8TdWiC3zoP5vcnZR4P682Uy"


def test_address_queue_indices_follow_the_queue() -> None:
    queued = [item for _, read in folder_transactions("batched_address_transactions") for item in read.queued_addresses]
    assert [item.queue_index for item in queued] == list(range(50))
    assert len({item.address for item in queued}) == 50


def test_nullifier_queue_indices_follow_the_queue_and_spend_known_leaves() -> None:
    for folder in ("batched_tree_transactions", "batch_append_nullify"):
        leaves: dict[bytes, int] = {}
        indices = []
        for _, read in folder_transactions(folder):
            for item in read.queued_nullifiers:
                assert leaves[item.account_hash] == item.leaf_index  # the output it spends, at its leaf
                assert item.account_hash in read.closed
                indices.append(item.queue_index)
            leaves.update((output.hash, output.leaf_index) for output in read.opened)
        assert indices == list(range(len(indices))) and len(indices) in (50, 20), folder


def test_the_v1_user_event_still_reads_as_before() -> None:
    [(_, read)] = folder_transactions("index_transaction")
    assert [(b58encode(o.tree), o.leaf_index, o.seq, o.queue) for o in read.opened] == [
        (SMT1, 4936216, 4944739, None), ("smt2rJAFdyJJupwMKAqTNAJwvjhmiZ4JYGZmbVRw1Ho", 96437, 100894, None)]
    assert len(read.closed) == 1 and read.queued_nullifiers == read.batch_updates == ()


# -------------------------------------------------------------------------------- hashes


def _all_reads() -> list[LedgerTransaction]:
    return [read for folder in FOLDERS for _, read in folder_transactions(folder)]


@pytest.mark.parametrize("batched", [False, True], ids=["v1-tree outputs", "batched-tree outputs"])
def test_every_output_hash_is_recomputed(batched: bool) -> None:
    outputs = [o for read in _all_reads() for o in read.opened if (o.queue is not None) == batched]
    assert len(outputs) == (157 if batched else 53)
    for output in outputs:
        assert account_hash(owner=output.owner, leaf_index=output.leaf_index, tree=output.tree,
                            lamports=output.lamports, address=output.address, discriminator=output.discriminator,
                            data_hash=output.data_hash, batched=batched) == output.hash, b58encode(output.hash)


def test_every_tx_hash_and_nullifier_is_recomputed() -> None:
    """tx_hash = chain(0, chain(inputs), chain(outputs), slot as 32-byte big-endian) (Light's
    `program-libs/compressed-account/src/tx_hash.rs`); nullifier = Poseidon(hash, leaf index, tx_hash)."""
    checked, unhashed = 0, []
    for read in _all_reads():
        for item in read.queued_nullifiers:
            slot = read.slot.to_bytes(32, "big")
            if item.tx_hash == bytes(32):  # the instruction's with_transaction_hash was false: the programs keep 0
                unhashed.append(read.signature_text)
            else:
                assert item.tx_hash == chain([bytes(32), chain(list(read.closed)),
                                              chain([o.hash for o in read.opened]), slot]), read.signature_text
            assert item.nullifier == poseidon(item.account_hash, item.leaf_index.to_bytes(32, "big"), item.tx_hash)
            checked += 1
    assert checked == 73
    assert {s[:8] for s in unhashed} == {"38KQTD2E"}  # the token transfer (3 inputs) of batched_tree_token_transactions


def test_only_an_output_queue_account_has_no_seq() -> None:
    """v1-tree outputs keep their seq whichever path wrote them (photon-0.50.0's noop events, smt1 outputs
    of the newer system program here); only accounts waiting in a batched tree's output queue have none."""
    v1 = [o for block in read_paths([V1_FIXTURES / "transactions", V1_FIXTURES / "blocks"])
          for tx in block.transactions for o in tx.opened]
    today = [o for read in _all_reads() for o in read.opened]
    assert len(v1) == 7 and len(today) == 210
    assert all((o.seq is None) == (o.queue is not None) for o in v1 + today)
    assert all(o.queue is None for o in v1)
