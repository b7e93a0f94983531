"""Harness overhead per checked request: the harness's own CPU time, the server's excluded.

Method: the reference server runs in its own process (`csi serve`, default scenario), and the
engine runs here, in this process, exactly as `csi run` runs it (same registry, profile `spec`,
seed 0). The CPU time this process spends inside `run()` (user + system, `getrusage`) is all
harness work: building requests, the HTTP client, parsing answers, validating them against the
contract, the checks' comparisons and the engine's bookkeeping. The server's work happens in
another process and is not in it; time spent waiting for answers is not CPU time. Divided by
the number of requests sent, that is the overhead per checked request. The server's own CPU for
the same run is read from /proc and shown beside it.

The first run also compiles the contract's validators; it is reported apart ("cold"), and the
figure is the median of the runs after it ("warm"). With --profile, one more run is profiled
and its CPU split by where the time went.

    .venv/bin/python benchmarks/bench_overhead.py
    .venv/bin/python benchmarks/bench_overhead.py --repeat 5 --profile
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import resource
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._common import HOST, Server, csi, free_port, machine, server

TARGET_MS = 1.0

CATEGORIES = (  # (category, path fragments, function names or None for any), first match wins
    ("base58", ("/groundwork/base58.py",), None),
    ("request generation (hypothesis)", ("/hypothesis/", "/sortedcontainers/", "/harness/generate.py", "/random.py"),
     None),
    ("validation (contract schemas)", ("/schema/validation.py", "/schema/contract.py", "/jsonschema"), None),
    ("Groth16 verification (pairings)", ("/ledger_proofs/", "/py_ecc/"), None),
    ("checks (comparisons, hashes, proofs)", ("/harness/checks/", "/harness/verify/", "/harness/judging/",
                                              "/ledger_crypto/"), None),
    ("HTTP client", ("/harness/connection/", "/httpx/", "/httpcore/", "/h11/", "/socket.py", "/ssl.py", "/selectors.py",
                     "/urllib/", "/idna/", "/email/", "/http/"), None),
    ("JSON", ("/json/", "/groundwork/jsonio.py"), None),
    ("engine and bookkeeping", ("/harness/engine/", "/harness/core/", "/harness/context/", "/harness/answer.py",
                                "/harness/discover.py", "/harness/redact.py", "/contextlib.py", "/dataclasses.py",
                                "/enum.py"), None),
)


def _cpu() -> tuple[float, float]:
    """(user, system) CPU seconds of this process so far."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime, usage.ru_stime


def certify(url: str, reference: Server) -> dict:
    """One engine run against `url`: this process's CPU, the server's, wall time, requests."""
    from csi_conformance.harness.connection import Target
    from csi_conformance.harness.context import RunFacts
    from csi_conformance.harness.core.profile import profile_named
    from csi_conformance.harness.engine.runner import RunConfig, run

    _forget_answers()
    with Target(url) as target:
        server_cpu, (user, system), start = reference.cpu_seconds(), _cpu(), time.perf_counter()
        result = run(target, RunFacts(profile=profile_named("spec")), RunConfig(concurrency=1))
        wall = time.perf_counter() - start
        user, system = (after - before for after, before in zip(_cpu(), (user, system), strict=True))
        server_cpu = reference.cpu_seconds() - server_cpu
    cpu = user + system
    return {"requests": result.requests, "harness_cpu_s": round(cpu, 3), "harness_system_s": round(system, 3),
            "server_cpu_s": round(server_cpu, 3),
            "wall_s": round(wall, 3), "harness_ms_per_request": round(1000 * cpu / result.requests, 3),
            "server_ms_per_request": round(1000 * server_cpu / result.requests, 3)}


def _forget_answers() -> None:
    """Empty the caches that hold what earlier runs' answers contained (decoded hashes, judged proof
    points), so that each run here pays for its answers as a `csi run` process does."""
    from csi_conformance.harness.checks.crypto import token_hashes
    from csi_conformance.harness.verify import values
    from csi_conformance.ledger_crypto import groth16

    values._base58_value.cache_clear()
    values._recomputed_hash.cache_clear()
    token_hashes._token_hash.cache_clear()
    groth16._curve_problem.cache_clear()


def _category(function: tuple[str, int, str]) -> str | None:
    """The category of a profiled function; None for a C builtin, which is charged to its callers."""
    filename, _, name = function
    if filename == "~":
        return None
    return next((category for category, parts, names in CATEGORIES
                 if any(p in filename for p in parts) and (names is None or name in names)), "other")


def breakdown(url: str, reference: Server) -> dict[str, float]:
    """Share of the harness's CPU per category, from one run under cProfile (on each thread's CPU time: the run's
    thread and every unit on its worker, whose profiles are added up).

    A builtin (a socket call, `isinstance`, a validator in Rust) is charged to the category of
    each caller, in proportion to the time it spent for that caller.
    """
    from csi_conformance.harness.engine.workers import Workers

    profiles: list[cProfile.Profile] = []
    on_thread = Workers._on_thread

    def profiled(self: Workers, work: Any) -> Any:  # each unit on its worker thread, on that thread's CPU time
        profile = cProfile.Profile(time.thread_time)
        profiles.append(profile)
        return profile.runcall(on_thread, self, work)

    profiler = cProfile.Profile(time.thread_time)
    Workers._on_thread = profiled  # type: ignore[method-assign]
    try:
        profiler.enable()
        certify(url, reference)
        profiler.disable()
    finally:
        Workers._on_thread = on_thread  # type: ignore[method-assign]
    totals: dict[str, float] = {}
    stats = pstats.Stats(profiler, *profiles).stats  # type: ignore[attr-defined]
    for function, (_, _, tottime, _, callers) in stats.items():
        category = _category(function)
        if category is not None:
            totals[category] = totals.get(category, 0.0) + tottime
            continue
        for caller, timing in callers.items():
            owner = _category(caller) or "other"
            totals[owner] = totals.get(owner, 0.0) + timing[2]
    whole = sum(totals.values())
    return {name: round(100 * value / whole, 1) for name, value in sorted(totals.items(), key=lambda kv: -kv[1])}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="warm runs after the cold one")
    parser.add_argument("--profile", action="store_true", help="split the harness CPU by category")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    import csi_conformance.harness.checks  # noqa: F401  (registers the catalogue, as `csi run` does)

    port = free_port()
    with server(csi("serve", "--host", HOST, "--port", str(port), "--scenario", "default"), port) as reference:
        cold = certify(reference.url, reference)
        warm = [certify(reference.url, reference) for _ in range(args.repeat)]
        split = breakdown(reference.url, reference) if args.profile else None
    median = statistics.median(run["harness_ms_per_request"] for run in warm)
    summary = {"machine": machine(), "cold": cold, "warm": warm, "harness_ms_per_request": median,
               "profile_split_percent": split}
    if args.json:
        print(json.dumps(summary, indent=2))
        return 0
    print(f"machine: {summary['machine']}")
    for name, run in [("cold", cold)] + [(f"warm {i + 1}", r) for i, r in enumerate(warm)]:
        print(f"{name}: {run['requests']:,} requests in {run['wall_s']:.2f} s; "
              f"harness CPU {run['harness_cpu_s']:.2f} s ({run['harness_system_s']:.2f} s in the kernel) "
              f"= {run['harness_ms_per_request']:.3f} ms/request; "
              f"server CPU {run['server_ms_per_request']:.3f} ms/request")
    if split:
        print("harness CPU by category (profiled): " + ", ".join(f"{k} {v}%" for k, v in split.items()))
    print(f"harness overhead {median:.3f} ms per checked request (warm median); "
          f"target (<= {TARGET_MS:.0f} ms): {'met' if median <= TARGET_MS else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
