"""A whole `csi run --chain` over a generated chain: the vendor's CI job, timed end to end.

Needs Light's programs and the prover (`csi prover install`). The light prover is started before the
clock (its start-up is printed apart) and shared by the target. The chain (`--ops` operations from
`--seed`, proofs from the user's proof cache) is generated first, and its replay into LiteSVM is
timed alone (`csi run --chain` does the same before it asks anything). The target is `csi serve
--transactions CHAIN --prover-url PROVER`: an indexer over the chain's blocks serving real proofs.
Each `csi run --chain CHAIN --target URL` (every check, as a vendor runs it) is timed from the
command's start to its exit; its report gives the requests, each check's status, and what the
`onchain` checks examined: proofs judged by the programs in LiteSVM, roots looked up in the on-chain
root histories, spent accounts asked about, queued accounts spent by index. The first run finds the
target's proofs unmade (the target proves each one), the second finds them in the target's proof
cache; then the `onchain` family alone. Each program set of `--programs` is measured in turn (by
default today's, 0.28.3, then 0.18.0's), so the new chain's figures stand beside the old.

    .venv/bin/python benchmarks/bench_chain_run.py [--ops 200] [--seed 1] [--programs 0.28.3 0.18.0]
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from csi_conformance.ledger_chain import generate, load_chain  # noqa: E402
from csi_conformance.ledger_chain.generation import PROGRAM_VERSIONS, programs_for  # noqa: E402
from csi_conformance.ledger_chain.proofs import ChainProver  # noqa: E402

from benchmarks._common import csi, free_port, machine, programs_and_prover, server  # noqa: E402


def certify(chain: Path, url: str, reports: Path, *extra: str) -> dict:
    """One `csi run --chain`: wall time, exit code and what its report says."""
    began = time.perf_counter()
    done = subprocess.run(csi("run", "--chain", str(chain), "--target", url, "--report-dir", str(reports), *extra),
                          cwd=ROOT, capture_output=True, text=True)
    wall = time.perf_counter() - began
    if done.returncode not in (0, 1):
        raise SystemExit(f"csi run exited with {done.returncode}: {done.stdout[-2000:]}{done.stderr[-2000:]}")
    report = json.loads((reports / "report.json").read_text(encoding="utf-8"))
    statuses: dict[str, int] = {}
    for check in report["checks"]:
        statuses[check["status"]] = statuses.get(check["status"], 0) + 1
    onchain = {check["id"]: check for check in report["checks"] if check["id"].startswith("onchain.")}
    queued = onchain.get("onchain.queued-spend", {}).get("examined", {})
    judged = onchain.get("onchain.proof-accepted", {}).get("examined", {})
    return {"wall_s": wall, "run_s": report["duration"], "requests": report["requests"], "exit": done.returncode,
            "statuses": statuses, "judged": judged,
            "roots": onchain.get("onchain.root-history", {}).get("examined", {}).get("roots", 0),
            "spent": onchain.get("onchain.spent-account", {}).get("examined", {}).get("spent accounts", 0),
            "queued": queued,
            "onchain": {name: check["status"] for name, check in onchain.items()},
            "failed": sorted({f["check_id"] for f in report["findings"] if f["status"] == "FAIL"})}


def show(label: str, figures: dict) -> None:
    judged = sum(figures["judged"].values())
    families = ", ".join(f"{n} {family}" for family, n in sorted(figures["judged"].items()))
    print(f"{label}: {figures['wall_s']:.1f} s wall (run {figures['run_s']:.1f} s), {figures['requests']:,} requests, "
          f"exit {figures['exit']}; checks {figures['statuses']}")
    print(f"  on-chain: {judged} proofs judged by the programs ({families}); {figures['roots']} roots looked up; "
          f"{figures['spent']} spent accounts asked; queued accounts spent by index: {figures['queued'] or 'none'}")
    print(f"  onchain checks: {figures['onchain']}")
    if figures["failed"]:
        print(f"  FAIL: {', '.join(figures['failed'])}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ops", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--programs", nargs="+", choices=PROGRAM_VERSIONS, default=list(PROGRAM_VERSIONS))
    args = parser.parse_args()
    print(machine())
    _, prover = programs_and_prover()
    for version in args.programs:
        print(f"-- Light's programs {version}")
        measure(args, programs_for(version), prover)


def measure(args: argparse.Namespace, installation: object, prover: str) -> None:
    work = Path(tempfile.mkdtemp(prefix="csi-bench-chain-run-"))
    try:
        chain_prover = ChainProver(url=prover)
        began = time.perf_counter()
        generate(args.ops, args.seed, work / "chain", prover=chain_prover, installation=installation)
        print(f"chain: {args.ops} operations, seed {args.seed}, generated in {time.perf_counter() - began:.1f} s "
              f"({chain_prover.proved} proofs made, {chain_prover.cached} cached)")
        began = time.perf_counter()
        load_chain(work / "chain", installation=installation)
        print(f"replay into LiteSVM (what csi run --chain does first): {time.perf_counter() - began:.2f} s")
        port = free_port()
        command = csi("serve", "--transactions", str(work / "chain"), "--prover-url", prover, "--port", str(port))
        with server(command, port) as target:
            print(f"target: csi serve --transactions, ready in {target.startup_s:.1f} s")
            show("csi run --chain, target proving", certify(work / "chain", target.url, work / "first"))
            show("csi run --chain, target's proofs cached", certify(work / "chain", target.url, work / "second"))
            show("csi run --chain --only onchain", certify(work / "chain", target.url, work / "onchain",
                                                            "--only", "onchain"))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
