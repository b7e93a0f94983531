"""Real proofs: prover start-up, one proof per circuit, one verification, and certification with verification on.

    .venv/bin/python benchmarks/bench_proofs.py              # everything (needs `csi prover install`)
    .venv/bin/python benchmarks/bench_proofs.py --skip-run   # without the two certification runs
    .venv/bin/python benchmarks/bench_proofs.py --json

- start-up: launch of `prover-<os>-<arch> start --inclusion --non-inclusion` (all 15 circuits) to its
  first healthy answer, and its resident memory then;
- proof: the reference's getValidityProof (in process, no HTTP) for each circuit over the default
  scenario, the light prover's proving time included; the first of each circuit (uncached);
- verification: `ledger_proofs.verify.verify_compressed` of the committed fixture proofs, median of
  5 per circuit after a first one (which also prepares the key: γ and δ lines, the α·β loop);
- certification: `csi run` of the bundled reference, with the light prover (the default once it is
  installed) and with `CSI_PROVER=none --skip crypto.groth16-proof` for comparison.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from csi_conformance.groundwork.base58 import b58decode  # noqa: E402
from csi_conformance.ledger_proofs.install import find_installation  # noqa: E402
from csi_conformance.ledger_proofs.process import ProverProcess  # noqa: E402
from csi_conformance.ledger_proofs.verify import verify_compressed  # noqa: E402
from csi_conformance.reference_server.methods import call  # noqa: E402
from csi_conformance.reference_server.options import ServerOptions  # noqa: E402
from csi_conformance.reference_server.scenario import load_scenario  # noqa: E402
from csi_conformance.schema import Contract  # noqa: E402

from tests.ledger_proofs.make_fixtures import fixture_requests  # noqa: E402
from tests.ledger_proofs.support import circuit_named, fixture_proofs  # noqa: E402


def _rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def bench_prover() -> dict:
    installation = find_installation()
    if installation is None:
        sys.exit("the light prover is not installed: run `csi prover install`")
    prover = ProverProcess(installation).start()
    try:
        out: dict = {"startup_s": round(prover.started_in or 0.0, 2)}
        if prover._process is not None and Path("/proc").exists():
            out["prover_rss_mib"] = round(_rss_mib(prover._process.pid))
        ledger, contract = load_scenario("default"), Contract.default()
        options = ServerOptions(prover_url=prover.url)
        proofs = {}
        for name, params, _ in fixture_requests(ledger, contract):
            start = time.perf_counter()
            call(ledger, "getValidityProof", params, options, contract)
            proofs[name] = round(time.perf_counter() - start, 3)
        out["proof_s"] = proofs
        return out
    finally:
        prover.stop()


def bench_verify() -> dict:
    out = {}
    for entry in fixture_proofs():
        circuit = circuit_named(entry["circuit"])
        inputs = [int.from_bytes(b58decode(v, length=32), "big") for v in entry["publicInputs"]]
        proof = entry["value"]["compressedProof"]
        start = time.perf_counter()
        assert verify_compressed(circuit, proof, inputs).verified
        first = time.perf_counter() - start
        times = []
        for _ in range(5):
            start = time.perf_counter()
            verify_compressed(circuit, proof, inputs)
            times.append(time.perf_counter() - start)
        out[entry["circuit"]] = {"first_s": round(first, 3), "median_s": round(statistics.median(times), 3)}
    return out


def bench_run(*extra: str, env: dict | None = None) -> dict:
    with tempfile.TemporaryDirectory() as folder:
        start = time.perf_counter()
        done = subprocess.run([str(Path(sys.executable).parent / "csi"), "run", "--report-dir", folder, *extra],
                              capture_output=True, text=True, env={**os.environ, **(env or {})}, check=False)
        seconds = time.perf_counter() - start
        report = json.loads((Path(folder) / "report.json").read_text())
    return {"exit": done.returncode, "wall_s": round(seconds, 1), "run_s": round(report["duration"], 1),
            "requests": report["requests"], "summary": report["summary"]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skip-run", action="store_true", help="leave out the two certification runs")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    results = {"verify": bench_verify(), "prover": bench_prover()}
    if not args.skip_run:
        results["certify_with_prover"] = bench_run(env={"CSI_PROVER": "light"})
        results["certify_without"] = bench_run("--skip", "crypto.groth16-proof", env={"CSI_PROVER": "none"})
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    medians = [v["median_s"] for v in results["verify"].values()]
    print(f"verification: median {statistics.median(medians):.3f} s, max {max(medians):.3f} s over 15 circuits; "
          f"first per circuit (key preparation) max {max(v['first_s'] for v in results['verify'].values()):.3f} s")
    prover = results["prover"]
    print(f"prover start-up: {prover['startup_s']} s, RSS {prover.get('prover_rss_mib', '?')} MiB")
    for name, seconds in prover["proof_s"].items():
        print(f"  proof {name}: {seconds} s")
    for key in ("certify_with_prover", "certify_without"):
        if key in results:
            print(f"{key}: {results[key]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
