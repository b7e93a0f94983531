"""A kept block is read back only while the node serves that very block: its hashes and parent, and its
transactions' signatures in order. Hashes alone are not enough: a node whose blockhashes do not commit to what its
blocks hold (a generated chain's once did: a blockhash of the slot alone), or a validator restarted from a
snapshot under the same genesis, serves other transactions under the hashes the cache holds."""

from __future__ import annotations

from pathlib import Path

import pytest
from csi_conformance.groundwork.jsonio import loads
from csi_conformance.ledger_ingest import fetch_blocks, parse_slots
from csi_conformance.ledger_ingest.block_cache import block_signatures, first_signature, still_served
from csi_conformance.ledger_ingest.stub_rpc import blocks_from_transactions, stub_solana_rpc

from tests.ledger_ingest.test_photon_replay import TRANSACTIONS


@pytest.fixture(scope="module")
def fixture_blocks() -> dict:
    return blocks_from_transactions(loads(p.read_text(encoding="utf-8")) for p in sorted(TRANSACTIONS.iterdir()))


def _swapped(blocks: dict, one: int, two: int) -> dict:
    """The same blocks and hashes, with the transactions of two slots exchanged: what the hashes say no longer
    tells which transactions a block holds."""
    return {**blocks, one: {**blocks[one], "transactions": blocks[two]["transactions"]},
            two: {**blocks[two], "transactions": blocks[one]["transactions"]}}


def _signatures(blocks: list) -> list[list[bytes]]:
    return [[tx.signature for tx in block.transactions] for block in blocks]


def test_other_transactions_under_the_same_hashes_are_fetched_again(fixture_blocks: dict, tmp_path: Path) -> None:
    with stub_solana_rpc(fixture_blocks, genesis="same-genesis") as (url, _):
        first = fetch_blocks(url, parse_slots("40..43"), cache=tmp_path)
    with stub_solana_rpc(_swapped(fixture_blocks, 41, 42), genesis="same-genesis") as (url, stub):
        second = fetch_blocks(url, parse_slots("40..43"), cache=tmp_path)
        assert stub.block_requests == 2, "41 and 42 hold other transactions now: both fetched again, no other"
        again = fetch_blocks(url, parse_slots("40..43"), cache=tmp_path)
        assert stub.block_requests == 2, "what is kept now is the node's: read back"
    order = _signatures(first)
    assert _signatures(second) == _signatures(again) == [order[0], order[2], order[1], order[3]]


def test_a_kept_block_is_the_nodes_only_with_the_same_hashes_and_signatures(fixture_blocks: dict) -> None:
    kept = fixture_blocks[41]
    served = {**{k: v for k, v in kept.items() if k != "transactions"}, "signatures": block_signatures(kept)}
    assert block_signatures(kept) == [first_signature(kept["transactions"][0])] and None not in block_signatures(kept)
    assert still_served(kept, served) and still_served(None, None)
    assert not still_served(kept, None) and not still_served(None, served)
    assert not still_served(kept, {**served, "signatures": []}), "a block emptied under the same hashes"
    assert not still_served(kept, {**served, "signatures": block_signatures(fixture_blocks[42])})
    for name in ("blockhash", "previousBlockhash", "parentSlot"):
        assert not still_served(kept, {**served, name: fixture_blocks[40][name]}), name


@pytest.mark.parametrize("answer", [
    {"signatures": "not a list"}, {"signatures": [7]}, {}, {"transactions": [{"transaction": ["!!", "base64"]}]},
    {"transactions": [{"transaction": {"signatures": []}}]}, {"transactions": ["x"]},
])
def test_a_hostile_answer_is_no_match_and_no_crash(fixture_blocks: dict, answer: dict) -> None:
    kept = fixture_blocks[41]
    header = {k: v for k, v in kept.items() if k != "transactions"}
    assert not still_served(kept, {**header, **answer})
    damaged = {**header, "transactions": answer.get("transactions", "damaged")}  # a kept entry gone bad
    assert not still_served(damaged, {**header, "signatures": block_signatures(kept)})
