"""A full default certification: `csi run` against the bundled reference, as a user runs it.

Each repetition is a fresh `csi run --report-dir DIR` (no flags: the default profile, seed and
check selection), timed from the command's start to its exit, so the figure includes starting
Python, loading the contract and starting the bundled reference server. The number of checked
requests is `requests` from the run's report.json. Exit codes 0 (conformant) and 1 (findings)
both count as a completed run. `--cache cold` gives each run an empty proof cache and leaves the proofs
shipped with the kit unread (every proof made, the prover started); `--cache fresh` an empty cache, as a
fresh machine has (the default run's proofs are shipped: none made); `--cache warm` fills one with a run
first, not timed, the shipped proofs unread (no proof made, no prover started); without it, runs use the
machine's cache as it is.

    .venv/bin/python benchmarks/bench_certification.py            # 3 repetitions
    .venv/bin/python benchmarks/bench_certification.py --cache cold --repeat 2
    .venv/bin/python benchmarks/bench_certification.py --cache fresh
    .venv/bin/python benchmarks/bench_certification.py --repeat 5 --json
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._common import ROOT, csi, machine

TARGET_SECONDS = 30.0
TARGET_REQUESTS = 2000


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def certify_once(extra: list[str], cache: Path | None = None, *, shipped: bool = True) -> dict:
    """One `csi run` (with `cache` as its proof cache, and the shipped proofs read or not): wall time, CPU time,
    exit code and what its report says."""
    env = {**os.environ, **({"CSI_PROOF_CACHE": str(cache)} if cache is not None else {}),
           **({} if shipped else {"CSI_SHIPPED_PROOFS": "0"})}
    with tempfile.TemporaryDirectory() as reports:
        cpu, start = _children_cpu(), time.perf_counter()
        done = subprocess.run(csi("run", "--report-dir", reports, *extra), cwd=ROOT, capture_output=True, text=True,
                              env=env)
        wall, cpu = time.perf_counter() - start, _children_cpu() - cpu
        if done.returncode not in (0, 1):
            raise RuntimeError(f"csi run exited with {done.returncode}: {done.stderr[-2000:]}")
        report = json.loads((Path(reports) / "report.json").read_text())
    statuses: dict[str, int] = {}
    for check in report["checks"]:
        statuses[check["status"]] = statuses.get(check["status"], 0) + 1
    return {"wall_s": round(wall, 2), "cpu_s": round(cpu, 2), "run_s": round(report["duration"], 2),
            "requests": report["requests"], "exit": done.returncode, "checks": statuses}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--cache", choices=("cold", "fresh", "warm"),
                        help="an empty proof cache per run (cold: the shipped proofs unread too), or one filled first")
    parser.add_argument("extra", nargs="*", help="more `csi run` arguments, after --")
    args = parser.parse_args()
    if not args.json:
        print(f"machine: {machine()}", flush=True)
    runs, scratch = [], Path(tempfile.mkdtemp(prefix="csi-bench-proofs-"))
    if args.cache == "warm":
        certify_once(args.extra, scratch / "warm", shipped=False)
    for index in range(args.repeat):
        cache = scratch / ("warm" if args.cache == "warm" else f"{args.cache}-{index}") if args.cache else None
        run = certify_once(args.extra, cache, shipped=args.cache not in ("cold", "warm"))
        runs.append(run)
        if not args.json:
            print(f"run {index + 1}: {run['wall_s']:.1f} s wall ({run['run_s']:.1f} s in the engine, "
                  f"{run['cpu_s']:.1f} s CPU), {run['requests']:,} checked requests, exit {run['exit']}, "
                  f"checks {run['checks']}", flush=True)
    shutil.rmtree(scratch, ignore_errors=True)
    wall = statistics.median(r["wall_s"] for r in runs)
    requests = min(r["requests"] for r in runs)
    summary = {"median_wall_s": wall, "requests": requests, "requests_per_s": round(requests / wall),
               "runs": runs}
    if args.json:
        print(json.dumps(summary, indent=2))
        return 0
    met = wall <= TARGET_SECONDS and requests >= TARGET_REQUESTS
    print(f"median {wall:.1f} s for {requests:,} checked requests ({summary['requests_per_s']:,}/s); "
          f"target (<= {TARGET_SECONDS:.0f} s with >= {TARGET_REQUESTS:,} requests): {'met' if met else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
