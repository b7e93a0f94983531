"""The real chain: operations per second with proofs made and with proofs cached, LiteSVM time per
transaction, replay, and `csi chain serve`'s getBlock throughput.

Needs Light's programs and the prover (`csi prover install`). The prover is started before the
clock (its start-up is printed apart). A first run draws `--ops` operations from `--seed` into a
fresh proof cache (every proof made by the light prover); a second run of the same seed finds
them all in that cache, and its blocks must be byte-identical. LiteSVM time is the time spent in
`Runtime.execute` (signing excluded), per transaction. Replay loads the chain back into LiteSVM.
The node serves the chain on loopback; one client on a keep-alive connection asks `getBlock` for
every block in turn, in base64 (the stored answer) and in json, for `--seconds` each.

Each program set of `--programs` is measured in turn (by default today's, 0.28.3, then 0.18.0's), so
the new chain's figures stand beside the old.

    .venv/bin/python benchmarks/bench_chain.py [--ops 200] [--seed 1] [--seconds 5] [--programs 0.28.3 0.18.0]
"""

from __future__ import annotations

import argparse
import filecmp
import shutil
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from csi_conformance.ledger_chain import ChainRpc, generate, load_chain  # noqa: E402
from csi_conformance.ledger_chain.generation import PROGRAM_VERSIONS, programs_for  # noqa: E402
from csi_conformance.ledger_chain.node import running_node  # noqa: E402
from csi_conformance.ledger_chain.proofs import ChainProver  # noqa: E402
from csi_conformance.ledger_chain.runtime import Runtime  # noqa: E402

from benchmarks._common import machine, programs_and_prover  # noqa: E402


class Timed:
    """Time spent in LiteSVM (`Runtime.execute`) and in proofs (`ChainProver.prove`)."""

    def __init__(self) -> None:
        self.svm = self.proving = 0.0
        self.transactions = 0
        execute, prove = Runtime.execute, ChainProver.prove

        def timed_execute(runtime: Runtime, tx: object) -> object:
            began = time.perf_counter()
            try:
                return execute(runtime, tx)
            finally:
                self.svm += time.perf_counter() - began
                self.transactions += 1

        def timed_prove(prover: ChainProver, *args: object) -> object:
            began = time.perf_counter()
            try:
                return prove(prover, *args)
            finally:
                self.proving += time.perf_counter() - began

        Runtime.execute, ChainProver.prove = timed_execute, timed_prove  # type: ignore[method-assign]


def run(ops: int, seed: int, out: Path, cache: Path, url: str, programs: object) -> tuple[float, ChainProver, Timed]:
    timed = Timed()
    prover = ChainProver(cache_dir=cache, url=url)
    began = time.perf_counter()
    generate(ops, seed, out, prover=prover, installation=programs)
    return time.perf_counter() - began, prover, timed


def get_blocks(url: str, slots: list[int], encoding: str, seconds: float) -> float:
    config = {"encoding": encoding, "transactionDetails": "full", "maxSupportedTransactionVersion": 0}
    done, began = 0, time.perf_counter()
    with httpx.Client() as client:
        while time.perf_counter() - began < seconds:
            slot = slots[done % len(slots)]
            answer = client.post(url, json={"jsonrpc": "2.0", "id": done, "method": "getBlock",
                                            "params": [slot, config]})
            if "result" not in answer.json():
                raise SystemExit(f"getBlock {slot} failed: {answer.text[:200]}")
            done += 1
    return done / (time.perf_counter() - began)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ops", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--programs", nargs="+", choices=PROGRAM_VERSIONS, default=list(PROGRAM_VERSIONS))
    args = parser.parse_args()
    print(machine())
    _, url = programs_and_prover()
    for version in args.programs:
        print(f"-- Light's programs {version}")
        measure(args, programs_for(version), url)


def measure(args: argparse.Namespace, installation: object, url: str) -> None:
    work = Path(tempfile.mkdtemp(prefix="csi-bench-chain-"))
    try:
        for label, out in (("proofs made  ", work / "first"), ("proofs cached", work / "second")):
            seconds, prover, timed = run(args.ops, args.seed, out, work / "proofs", url, installation)
            print(f"{label}: {args.ops} operations in {seconds:.2f} s = {args.ops / seconds:.1f} ops/s; "
                  f"{prover.proved} proofs made, {prover.cached} cached, {timed.proving:.2f} s in proofs; "
                  f"LiteSVM {1000 * timed.svm / max(timed.transactions, 1):.2f} ms a transaction "
                  f"({timed.transactions} transactions, {timed.svm:.2f} s)")
        same = not filecmp.dircmp(work / "first", work / "second").diff_files
        print(f"second run byte-identical to the first: {same}")
        began = time.perf_counter()
        load_chain(work / "second", installation=installation)
        print(f"replay into LiteSVM: {time.perf_counter() - began:.2f} s")
        rpc = ChainRpc(work / "second", installation=installation)
        with running_node(rpc) as node:
            for encoding in ("base64", "json"):
                rate = get_blocks(node, rpc.slots, encoding, args.seconds)
                print(f"csi chain serve: getBlock {encoding}, full: {rate:,.0f} requests/s (one client)")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
