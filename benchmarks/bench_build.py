"""Scenario build: wall time and peak memory of a generated ledger of 10k, 100k and 1M accounts.

Each size is built in a fresh subprocess, so no cache of an earlier size helps it; its peak resident
set is its own `VmHWM` (Linux), which starts again at exec (`ru_maxrss` does not: it keeps at least the
RSS of the process that started it, here this script's). The figure is `generate_ledger` (drawing the transactions
and building the ledger, hashing with worker processes from 20k accounts on): wall time, CPU
time of the process and its workers, peak RSS of the process and of its largest worker. After
it, the child also times `generate_scenario` alone (the document a scenario file would hold).

    .venv/bin/python benchmarks/bench_build.py                 # 10k, 100k, 1M
    .venv/bin/python benchmarks/bench_build.py --sizes 10000 --json
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SIZES = (10_000, 100_000, 1_000_000)
TARGET = {"accounts": 1_000_000, "seconds": 120.0, "peak_mib": 4096.0}

_CHILD = """
import json, resource, sys, time
from csi_conformance.reference_server.generate import generate_ledger, generate_scenario
from benchmarks._common import memory_mib
accounts, seed = int(sys.argv[1]), int(sys.argv[2])
def cpu():
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime
start, cpu_start = time.perf_counter(), cpu()
ledger = generate_ledger(accounts=accounts, seed=seed)
build_s, cpu_s = time.perf_counter() - start, cpu() - cpu_start
peak_mib = memory_mib()["VmHWM"]
children_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
transactions = len(ledger.transactions)
del ledger
start = time.perf_counter()
generate_scenario(accounts=accounts, seed=seed)
document_s = time.perf_counter() - start
print(json.dumps({"accounts": accounts, "document_s": round(document_s, 2), "build_s": round(build_s, 2),
                  "cpu_s": round(cpu_s, 2),
                  "peak_mib": round(peak_mib, 1), "worker_peak_mib": round(children_kib / 1024, 1),
                  "transactions": transactions}))
"""


def measure(accounts: int, seed: int) -> dict:
    """One build in a fresh interpreter: its figures as a dict."""
    done = subprocess.run([sys.executable, "-c", _CHILD, str(accounts), str(seed)], cwd=ROOT,
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=list(SIZES))
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    args = parser.parse_args()
    rows = []
    for accounts in args.sizes:
        row = measure(accounts, args.seed)
        rows.append(row)
        if not args.json:
            print(f"{accounts:>9,} accounts: build {row['build_s']:7.1f} s, CPU {row['cpu_s']:.1f} s "
                  f"(document {row['document_s']:.1f} s), "
                  f"peak RSS {row['peak_mib']:,.0f} MiB (workers {row['worker_peak_mib']:,.0f} MiB), "
                  f"{row['transactions']:,} transactions", flush=True)
    if args.json:
        print(json.dumps(rows, indent=2))
    big = next((r for r in rows if r["accounts"] == TARGET["accounts"]), None)
    if big is not None and not args.json:
        met = big["build_s"] <= TARGET["seconds"] and big["peak_mib"] + big["worker_peak_mib"] <= TARGET["peak_mib"]
        print(f"target (1M in <= {TARGET['seconds']:.0f} s within 4 GiB): {'met' if met else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
