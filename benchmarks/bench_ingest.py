"""Ingestion speed: real transactions per second, from files and from a Solana JSON-RPC endpoint.

Needs nothing but the kit: the data are Photon 0.50.0's fixture transactions
(tests/ledger_ingest/fixtures/photon-0.50.0): the real block 270893658 (57 transactions, 11 votes)
and the four ZK Compression transactions. For a volume worth timing, the block is repeated under
`--blocks` slot numbers; a repeated block holds the same signatures, so those copies are read and
decoded (solders, borsh events) but not applied. Applying (the ledger's accounts, indexes and
Poseidon state tree) is timed on the slice of the four compression transactions, repeated
`--rounds` times into fresh ledgers (made before the clock starts).

    .venv/bin/python benchmarks/bench_ingest.py [--blocks 200] [--rounds 200]

Prints: files → decoded transactions/s; stub RPC (getBlock over loopback, no cache) → transactions/s;
and compression transactions applied/s.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from csi_conformance.groundwork.jsonio import loads  # noqa: E402
from csi_conformance.ledger_ingest import fetch_blocks, parse_slots, read_paths  # noqa: E402
from csi_conformance.ledger_ingest.stub_rpc import stub_solana_rpc  # noqa: E402
from csi_conformance.reference_server.ingest import ledger_from_blocks  # noqa: E402
from csi_conformance.reference_server.ledger_native import NativeLedger  # noqa: E402

from benchmarks._common import machine  # noqa: E402

FIXTURES = ROOT / "tests" / "ledger_ingest" / "fixtures" / "photon-0.50.0"
BLOCK = FIXTURES / "blocks" / "get_lanon_voting_signatures" / "270893658"
TRANSACTIONS = FIXTURES / "transactions" / "e2e_mint_and_transfer_transactions"
FIRST_SLOT = 300_000_000


def from_files(blocks: int) -> tuple[int, float]:
    folder = Path(tempfile.mkdtemp(prefix="csi-bench-ingest-"))
    try:
        for n in range(blocks):
            shutil.copyfile(BLOCK, folder / str(FIRST_SLOT + n))
        started = time.perf_counter()
        read = read_paths([folder])
        elapsed = time.perf_counter() - started
    finally:
        shutil.rmtree(folder)
    return sum(len(b.transactions) for b in read), elapsed


def from_stub(blocks: int) -> tuple[int, float]:
    block = loads(BLOCK.read_text(encoding="utf-8"))
    served = {FIRST_SLOT + n: block for n in range(blocks)}
    with stub_solana_rpc(served) as (url, _):
        started = time.perf_counter()
        fetched = fetch_blocks(url, parse_slots(f"{FIRST_SLOT}..{FIRST_SLOT + blocks - 1}"))
        elapsed = time.perf_counter() - started
    return sum(len(b.transactions) for b in fetched), elapsed


def applying(rounds: int) -> tuple[int, float]:
    blocks = read_paths([TRANSACTIONS])
    ledgers = [NativeLedger() for _ in range(rounds)]  # a fresh ledger hashes its empty trees: not timed
    started = time.perf_counter()
    for ledger in ledgers:
        ledger_from_blocks(blocks, ledger)
    return rounds * len(blocks), time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--blocks", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=200)
    args = parser.parse_args()
    print(machine())
    count, seconds = from_files(args.blocks)
    print(f"files:    {count} transactions ({args.blocks} block files) read and decoded in {seconds:.2f} s "
          f"= {count / seconds:,.0f} tx/s")
    count, seconds = from_stub(args.blocks)
    print(f"stub RPC: {count} transactions ({args.blocks} getBlock over loopback) fetched and decoded in "
          f"{seconds:.2f} s = {count / seconds:,.0f} tx/s")
    count, seconds = applying(args.rounds)
    print(f"applying: {count} compression transactions applied in {seconds:.2f} s = {count / seconds:,.0f} tx/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
