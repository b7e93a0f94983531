"""Measure each unit's chain of dependent requests, and write them where the engine reads them.

The reference server (`csi serve --prover none`) sits behind the loopback proxy of `bench_concurrency.py`, which
holds every answer DELAY ms (default 100): a remote endpoint's round trip. The engine certifies it in this
process at the default concurrency, and each unit's time on its worker, divided by the delay, is the number of
round trips it made one after another (a pagination walk's pages, a proof after its accounts). Written to
`harness/engine/chains.json` with `--write`; the engine starts the longest first (`units.long_chains`).

    .venv/bin/python benchmarks/measure_chains.py            # print the 20 longest
    .venv/bin/python benchmarks/measure_chains.py --write    # and write harness/engine/chains.json
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from csi_conformance.harness.connection import Target
from csi_conformance.harness.context import RunFacts
from csi_conformance.harness.core.events import Event, UnitFinished
from csi_conformance.harness.core.profile import profile_named
from csi_conformance.harness.engine.runner import RunConfig, run
from csi_conformance.harness.engine.units import LONG_CHAIN

from benchmarks._common import ROOT, csi, free_port, machine, server
from benchmarks.bench_concurrency import delaying_proxy

CHAINS = ROOT / "harness" / "engine" / "chains.json"
ABOUT = ("Unit name -> round trips it makes one after another, measured against a target 100 ms away by "
         "benchmarks/measure_chains.py; the engine starts the longest first (harness/engine/units.py).")


def measure(delay: float) -> dict[str, int]:
    """Unit name -> its round trips in sequence, from one run through a proxy holding each answer `delay` s."""
    timed: dict[str, float] = {}

    def heard(event: Event) -> None:
        if isinstance(event, UnitFinished):
            timed[event.name] = event.seconds

    port = free_port()
    with server(csi("serve", "--port", str(port), "--prover", "none"), port) as upstream, \
            delaying_proxy(upstream.url, delay) as url, Target(url) as target:
        run(target, RunFacts(profile=profile_named("spec")), RunConfig(skip=["crypto.groth16-proof"]),
            on_event=heard)
    return {name: round(seconds / delay) for name, seconds in timed.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--delay-ms", type=float, default=100.0)
    parser.add_argument("--write", action="store_true", help=f"write {CHAINS.relative_to(ROOT)}")
    args = parser.parse_args()
    print(machine(), flush=True)
    chains = measure(args.delay_ms / 1000)
    longest = sorted(chains.items(), key=lambda item: (-item[1], item[0]))
    for name, trips in longest[:20]:
        print(f"{trips:5d}  {name}")
    kept = {name: trips for name, trips in sorted(chains.items()) if trips >= LONG_CHAIN}
    print(f"{len(chains)} units, {len(kept)} of {LONG_CHAIN} round trips or more", flush=True)
    if args.write:
        CHAINS.write_text(json.dumps({"about": ABOUT, "chains": kept}, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {CHAINS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
