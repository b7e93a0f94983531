"""Checked requests a second: `csi run` against schemathesis, on one reference server, in one run.

Method: one `csi serve --prover none` (the default scenario, placeholder proofs) serves both
tools, in turns. `csi run --target URL --skip crypto.groth16-proof` (placeholder proofs are no
Groth16 proofs; `CSI_PROVER=none` for its own reference) is timed by its report: `requests` over
`duration`, the engine's run (Python's start and the contract's load are not in it; the wall time,
which has them, is printed beside). schemathesis runs the kit's OpenAPI export with the kit's
JSON-RPC settings (`harness/fuzz/`), `--seed 1`, and `-n` examples per operation and phase; its
rate is the test cases it generated (each one request, checked) over the time its summary gives.

schemathesis's rate depends on `-n`: its coverage phase (about 1,300 cases) is cheaper per case
than its fuzzing phase, whose examples grow. The comparison is made at `-n 20`, the setting of the
first measurement (benchmarks/README.md), and schemathesis's rate at each `--examples` value is
printed, so the ratio is never read off one favourable setting.

    .venv/bin/python benchmarks/bench_schemathesis.py
    .venv/bin/python benchmarks/bench_schemathesis.py --repeat 3 --examples 5 20 100
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._common import BIN, HOST, ROOT, csi, free_port, machine, server

TARGET_RATIO = 5.0
COMPARED_AT = 20
"""The `-n` the ratio is judged at: the first measurement's."""


def csi_rate(url: str) -> dict:
    """One `csi run` against `url`: requests, the engine's duration, wall time, exit code."""
    env = {**os.environ, "CSI_PROVER": "none"}
    with tempfile.TemporaryDirectory() as reports:
        start = time.perf_counter()
        done = subprocess.run(csi("run", "--target", url, "--skip", "crypto.groth16-proof", "--report-dir", reports),
                              cwd=ROOT, capture_output=True, text=True, env=env)
        wall = time.perf_counter() - start
        if done.returncode not in (0, 1):
            raise RuntimeError(f"csi run exited with {done.returncode}: {done.stderr[-2000:]}")
        report = json.loads((Path(reports) / "report.json").read_text())
    return {"requests": report["requests"], "run_s": report["duration"], "wall_s": round(wall, 2),
            "exit": done.returncode, "per_s": round(report["requests"] / report["duration"], 1)}


SUMMARY = re.compile(r"(\d+) generated")
TOOK = re.compile(r"=+ .* in ([\d.]+)s =+")


def schemathesis_rate(url: str, examples: int) -> dict:
    """One schemathesis run against `url` with `-n examples`: cases, its own time, exit code."""
    from csi_conformance.harness import fuzz
    from csi_conformance.schema import SCHEMA_DIR

    command = [str(BIN / "schemathesis"), "--config-file", str(fuzz.CONFIG), "run",
               str(SCHEMA_DIR / "dist" / "openapi.json"), "--url", url, "--seed", "1", "-n", str(examples),
               "--no-color"]
    start = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True,
                          env={**os.environ, "SCHEMATHESIS_HOOKS": fuzz.HOOKS})
    wall = time.perf_counter() - start
    cases, took = SUMMARY.search(done.stdout), TOOK.search(done.stdout)
    if cases is None or took is None:
        raise RuntimeError(f"schemathesis gave no summary (exit {done.returncode}): {done.stdout[-2000:]}")
    return {"examples": examples, "cases": int(cases.group(1)), "run_s": float(took.group(1)),
            "wall_s": round(wall, 2), "exit": done.returncode,
            "per_s": round(int(cases.group(1)) / float(took.group(1)), 1)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs of each tool (medians are compared)")
    parser.add_argument("--examples", type=int, nargs="+", default=[COMPARED_AT, 100],
                        help=f"schemathesis -n values to run (the ratio is judged at {COMPARED_AT})")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    examples = sorted(set(args.examples) | {COMPARED_AT})
    if not args.json:
        print(f"machine: {machine()}", flush=True)
    port = free_port()
    csi_runs: list[dict] = []
    theirs: dict[int, list[dict]] = {n: [] for n in examples}
    with server(csi("serve", "--host", HOST, "--port", str(port), "--prover", "none"), port) as reference:
        for index in range(args.repeat):  # interleaved, so both see the same machine
            csi_runs.append(csi_rate(reference.url))
            for n in examples:
                theirs[n].append(schemathesis_rate(reference.url, n))
            if not args.json:
                print(f"round {index + 1}: csi {csi_runs[-1]}; " + "; ".join(
                    f"schemathesis -n {n} {theirs[n][-1]}" for n in examples), flush=True)
    ours = statistics.median(run["per_s"] for run in csi_runs)
    rates = {n: statistics.median(run["per_s"] for run in runs) for n, runs in theirs.items()}
    summary = {"machine": machine(), "csi_per_s": ours, "schemathesis_per_s": rates,
               "ratio": {n: round(ours / rate, 2) for n, rate in rates.items()}, "csi": csi_runs,
               "schemathesis": theirs}
    if args.json:
        print(json.dumps(summary, indent=2))
        return 0
    ratio = ours / rates[COMPARED_AT]
    print(f"csi {ours:,.0f} checked requests/s (median of {len(csi_runs)}); schemathesis " +
          ", ".join(f"-n {n}: {rate:,.0f}/s ({ours / rate:.1f}x)" for n, rate in rates.items()))
    print(f"ratio at -n {COMPARED_AT}: {ratio:.1f}x; target (>= {TARGET_RATIO:.0f}x): "
          f"{'met' if ratio >= TARGET_RATIO else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
