"""Fetching a slice of slots from a Solana JSON-RPC endpoint: a stub on loopback serves the fixture
transactions as blocks (slots 40..43), with skipped slots, a 429 and an api key."""

from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from pathlib import Path

import httpx
import pytest
from csi_conformance.groundwork.errors import ConfigError
from csi_conformance.groundwork.jsonio import loads
from csi_conformance.groundwork.redaction import redact_url
from csi_conformance.ledger_ingest import IngestError, LedgerSource, fetch_blocks, parse_slots
from csi_conformance.ledger_ingest.sources import LedgerNotReached, fetch_slice
from csi_conformance.ledger_ingest.stub_rpc import StubSolanaRpc, blocks_from_transactions, link_blocks, stub_solana_rpc
from csi_conformance.reference_server.ingest import ingest_source

from tests.ledger_ingest.test_photon_replay import TRANSACTIONS

KEY = "sekrit-key-123"


@pytest.fixture(scope="module")
def fixture_blocks() -> dict:
    return blocks_from_transactions(loads(p.read_text(encoding="utf-8")) for p in sorted(TRANSACTIONS.iterdir()))


def test_a_slice_is_fetched_with_skipped_slots_and_a_retry(fixture_blocks: dict, tmp_path: Path) -> None:
    lines: list[str] = []
    with stub_solana_rpc(fixture_blocks, skipped=[44], fail_first=1, api_key=KEY) as (url, stub):
        blocks = fetch_blocks(f"{url}?api-key={KEY}", parse_slots("38..45"), cache=tmp_path,
                              progress=lambda text, *rest: lines.append(text))
        assert [b.slot for b in blocks] == [40, 41, 42, 43]
        assert stub.block_requests == 5  # 40..43 and the skipped 44; 38, 39 and 45 hold no block
        assert [p.name for p in tmp_path.iterdir()] == [stub.genesis]  # a folder per chain
        assert sorted(p.name for p in (tmp_path / stub.genesis).iterdir()) == [
            "40.json", "41.json", "42.json", "43.json", "44.skipped"]
        again = fetch_blocks(f"{url}?api-key={KEY}", parse_slots("38..45"), cache=tmp_path)
        assert stub.block_requests == 5  # resumed from the cache: no block fetched twice
        assert stub.header_requests == 5  # each kept entry held to the node's hashes and signatures of its slot
    assert [b.transactions for b in again] == [b.transactions for b in blocks]
    assert lines[-1].startswith("csi: ledger slots 38..45: 5/5 blocks") and "1 skipped" in lines[-1]
    assert all(KEY not in line for line in lines)


def test_an_interrupted_fetch_resumes(fixture_blocks: dict, tmp_path: Path) -> None:
    with stub_solana_rpc(fixture_blocks) as (url, stub):
        fetch_blocks(url, parse_slots("40..41"), cache=tmp_path)
        assert stub.block_requests == 2
        ledger = ingest_source(LedgerSource.rpc(url, "40..43", tmp_path),
                               progress=lambda *args: None).ledger
        assert stub.block_requests == 4  # only 42 and 43 were missing
    assert len(ledger.transactions) == 4 and ledger.indexed_slot == 43


def test_the_endpoint_key_never_shows(fixture_blocks: dict) -> None:
    assert redact_url(f"https://rpc.example/?api-key={KEY}&x=1") == "https://rpc.example/?api-key=REDACTED&x=1"
    with stub_solana_rpc(fixture_blocks, api_key="other") as (url, _), pytest.raises(IngestError) as caught:
        fetch_blocks(f"{url}?api-key={KEY}", parse_slots("40..41"))
    assert "HTTP 401" in str(caught.value) and KEY not in str(caught.value) and "REDACTED" in str(caught.value)


def test_a_slice_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("csi_conformance.ledger_ingest.sources.RETRIES", 1)
    with pytest.raises(ValueError, match="at most"):
        parse_slots("1..1000000")
    with pytest.raises(ValueError, match="before the first"):
        parse_slots("9..3")
    with pytest.raises(ConfigError, match=r"failed 1 times"):
        ingest_source(LedgerSource.rpc("http://127.0.0.1:9/", "1..2"), progress=lambda *a: None)


def test_a_retry_after_date_is_honoured(fixture_blocks: dict, monkeypatch: pytest.MonkeyPatch) -> None:
    """Retry-After as an HTTP-date (RFC 9110), read by the same parser as the harness's back-off: an hour
    away, so the fetch waits its longest pause (10 s), which the sleep below records instead of waiting."""
    slept: list[float] = []
    monkeypatch.setattr("csi_conformance.ledger_ingest.sources.time.sleep", slept.append)
    later = format_datetime(datetime.now(UTC) + timedelta(hours=1), usegmt=True)
    stub = StubSolanaRpc(fixture_blocks)
    asked: list[int] = []

    def handler(request: httpx.Request) -> httpx.Response:
        asked.append(1)
        if len(asked) == 1:
            return httpx.Response(429, headers={"retry-after": later})
        status, text = stub.answer(request.url.query.decode(), request.content)
        return httpx.Response(status, text=text)

    blocks = fetch_blocks("https://rpc.example/", parse_slots("40..40"), transport=httpx.MockTransport(handler))
    assert [b.slot for b in blocks] == [40] and 10.0 in slept


def test_an_interrupted_cache_write_leaves_no_partial_entry(fixture_blocks: dict, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupt(source: str, destination: str) -> None:
        raise KeyboardInterrupt

    with stub_solana_rpc(fixture_blocks) as (url, stub):
        monkeypatch.setattr(os, "replace", interrupt)
        with pytest.raises(KeyboardInterrupt):
            fetch_blocks(url, parse_slots("40..40"), cache=tmp_path)
        monkeypatch.undo()
        assert list((tmp_path / stub.genesis).iterdir()) == []  # neither the entry nor a temporary file
        fetch_blocks(url, parse_slots("40..40"), cache=tmp_path)
    assert [p.name for p in (tmp_path / stub.genesis).iterdir()] == ["40.json"] and stub.block_requests == 2


def _other_ledger(blocks: dict) -> dict:
    """The fixture ledger with its last block emptied: another chain with blocks at the same slots."""
    last = max(blocks)
    return link_blocks({**blocks, last: {**blocks[last], "transactions": []}})


def test_a_second_chain_at_the_same_url_uses_none_of_the_first_chains_blocks(
        fixture_blocks: dict, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A chain regenerated and served on the same port: its blocks are kept under its own genesis hash, so not
    one block of the first chain is read back (the cache was keyed by the URL: the first chain's last block was
    served as the second's)."""
    monkeypatch.setenv("CSI_LEDGER_CACHE", str(tmp_path))
    with stub_solana_rpc(fixture_blocks, skipped=[44]) as (url, first):
        one = ingest_source(LedgerSource.rpc(url, "38..45"), progress=lambda *a: None).ledger
    port = int(url.rsplit(":", 1)[1].strip("/"))
    with stub_solana_rpc(_other_ledger(fixture_blocks), skipped=[44], port=port) as (again, second):
        assert again == url and second.genesis != first.genesis
        two = ingest_source(LedgerSource.rpc(url, "38..45"), progress=lambda *a: None).ledger
        assert second.block_requests == 5  # every block of the second chain came from its node
    assert (len(one.transactions), len(two.transactions)) == (4, 3)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([first.genesis, second.genesis])


def test_a_kept_block_that_no_longer_links_with_the_node_is_fetched_again(fixture_blocks: dict,
                                                                         tmp_path: Path) -> None:
    """Same genesis, another last block (a chain regenerated from the same genesis): the blocks that still link
    with the node's blockhash chain are read back, the one that does not is dropped and fetched again."""
    with stub_solana_rpc(fixture_blocks, genesis="same-genesis") as (url, _):
        fetch_blocks(url, parse_slots("40..43"), cache=tmp_path)
    with stub_solana_rpc(_other_ledger(fixture_blocks), genesis="same-genesis") as (url, stub):
        blocks = fetch_blocks(url, parse_slots("40..43"), cache=tmp_path)
        assert (stub.block_requests, stub.header_requests) == (1, 4)  # each held to the node's; 43 refetched
        again = fetch_blocks(url, parse_slots("40..43"), cache=tmp_path)
        assert stub.block_requests == 1  # now every kept block is the node's
    assert [len(b.transactions) for b in blocks] == [len(b.transactions) for b in again] == [1, 1, 1, 0]


def test_without_the_cache_nothing_is_kept_or_read(fixture_blocks: dict, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CSI_LEDGER_CACHE", str(tmp_path))
    with stub_solana_rpc(fixture_blocks) as (url, stub):
        for _ in range(2):
            ingest_source(LedgerSource.rpc(url, "40..43", cached=False), progress=lambda *a: None)
        assert stub.block_requests == 8
    assert list(tmp_path.iterdir()) == []


def test_a_slice_past_the_tip_follows_the_node_until_its_last_slot(fixture_blocks: dict) -> None:
    """The node is at slot 40 and produces a slot each time it is asked its tip: the read follows it to 45 and
    says so, rather than reading what exists and announcing the whole slice."""
    lines: list[str] = []
    with stub_solana_rpc(fixture_blocks, skipped=[44], tip=40, advance=1) as (url, _):
        fetched = fetch_slice(url, parse_slots("38..45"), poll=0.01, wait=3600,
                              progress=lambda text, *rest: lines.append(text))
    assert fetched.complete and fetched.read == parse_slots("38..45") and fetched.tip >= 45
    assert [b.slot for b in fetched.blocks] == [40, 41, 42, 43]
    assert any("the node is at slot 40, before 45: following it" in line for line in lines)


def test_at_the_deadline_the_read_says_how_far_it_got(fixture_blocks: dict) -> None:
    """A node stuck at slot 42: at the deadline the slice read is 38..42, never the 38..45 asked; a run refuses
    it (LedgerNotReached, exit 3), `csi serve` serves it under the slots it holds."""
    with stub_solana_rpc(fixture_blocks, tip=42) as (url, _):
        fetched = fetch_slice(url, parse_slots("38..45"), poll=0.01, wait=0.05)
        with pytest.raises(IngestError, match=r"tip was at slot 42 .* read only slots 38\.\.42"):
            fetch_blocks(url, parse_slots("38..45"), poll=0.01, wait=0.05)
        source = LedgerSource.rpc(url, "38..45", cached=False, wait=0.05)
        with pytest.raises(LedgerNotReached, match=r"read only slots 38\.\.42 .*--ledger-wait"):
            ingest_source(source, progress=lambda *a: None)
        held = ingest_source(source, progress=lambda *a: None, partial=True)
    assert not fetched.complete and fetched.read == parse_slots("38..42")
    assert [b.slot for b in fetched.blocks] == [40, 41, 42]
    assert held.source.startswith(f"ledger slots 38..42 of {url} (asked 38..45")
    assert len(held.ledger.transactions) == 3
