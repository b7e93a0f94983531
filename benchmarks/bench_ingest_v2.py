"""Reading today's ledger: decode + changes of Photon HEAD's real batched-tree transactions, per folder.

The data are tests/ledger_ingest/fixtures/photon-head (batched state and address trees, the newer
system program's `insert_into_queues`, forester batch events). Each folder's `getTransaction` results
are parsed from JSON once, before the clock; what is timed is `decode_transaction` (base64, solders)
and `transaction_changes` (recognition, borsh/zero-copy layouts, Poseidon of every queued nullifier),
over `--rounds` passes (more for a small folder, so that each times at least 200 transactions).
`index_transaction` (one v1-path devnet transaction) is timed alone: the median of `--repeat` runs.

    .venv/bin/python benchmarks/bench_ingest_v2.py [--rounds 20] [--repeat 200]

Prints transactions per second for each folder, and the time of one `index_transaction`.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from csi_conformance.groundwork.jsonio import loads  # noqa: E402
from csi_conformance.ledger_ingest import decode_transaction, transaction_changes  # noqa: E402

from benchmarks._common import machine  # noqa: E402

TRANSACTIONS = ROOT / "tests" / "ledger_ingest" / "fixtures" / "photon-head" / "transactions"


def results(folder: str) -> list[dict]:
    return [loads(path.read_text(encoding="utf-8")) for path in sorted((TRANSACTIONS / folder).iterdir())]


def rate(items: list[dict], rounds: int) -> tuple[int, float]:
    rounds = max(rounds, -(-200 // len(items)))
    started = time.perf_counter()
    for _ in range(rounds):
        for result in items:
            transaction_changes(decode_transaction(result))
    return rounds * len(items), time.perf_counter() - started


def single(result: dict, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        transaction_changes(decode_transaction(result))
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()
    print(machine())
    for folder in sorted(path.name for path in TRANSACTIONS.iterdir()):
        if folder == "index_transaction":
            continue
        count, seconds = rate(results(folder), args.rounds)
        print(f"{folder:36} {count:6} transactions in {seconds:6.2f} s = {count / seconds:8,.0f} tx/s")
    [result] = results("index_transaction")
    print(f"{'index_transaction':36} one transaction, decode + changes: {single(result, args.repeat) * 1e6:,.0f} µs "
          f"(median of {args.repeat})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
