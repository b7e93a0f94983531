"""How long each hostile behaviour of a target holds the harness: the README's "Hostile targets" table.

The tests (tests/harness/test_target.py, test_hostile_runs.py) prove each protection without a
clock; this measures what the protections cost in time, with the same hostile servers.

One request: a `Target` with timeout T calls a loopback server from tests/harness/hostile_servers.py
that misbehaves one way; the figure is the wall time of `Target.call` until it returns its
Exchange (median and max of --repeat calls), with the error it ended with.

Whole runs: `csi run --timeout T` (families transport, schema and health) through the proxy of
tests/harness/hostile_proxy.py in front of the reference server: a clean run, one method that
never answers, and 429 on every request with and without `Retry-After: 1` (the run stops, exit 3).

    .venv/bin/python benchmarks/bench_hostile.py                       # T = 2 s, 3 calls each, the runs
    .venv/bin/python benchmarks/bench_hostile.py --timeout 10 --repeat 1 --no-runs
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from csi_conformance.harness.connection import Target

from benchmarks._common import machine
from tests.harness import hostile_servers as hs
from tests.harness.broken import serving
from tests.harness.csi_process import start
from tests.harness.hostile_proxy import EVERY, proxied

JSON_HEAD = b'{"jsonrpc":"2.0","id":"csi-1","result":'
PARTIAL = b'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 400\r\n\r\n{"jsonrpc":"2.'
HTML_502 = b"<html><body><h1>502 Bad Gateway</h1></body></html>"
FAMILIES = ("--only", "transport", "--only", "schema", "--only", "health")

# behaviour (as the README's table names it), the server's handler, the README's bound
REQUESTS: list[tuple[str, Callable[[], hs.Handler], str]] = [
    ("no answer at all", hs.silent, "T"),
    ("an answer dripped a byte a second", lambda: hs.drip(hs.response(200, JSON_HEAD + b'"ok"}')),
     "T, whatever the drip rate"),
    ("a 1 GB body", lambda: hs.Zeros(1 << 30), "reading stops at 8 MiB, within T"),
    ("invalid UTF-8", lambda: hs.answer(200, JSON_HEAD + b'"\xff"}'), "at once"),
    ("JSON nested 100,000 deep", lambda: hs.answer(200, JSON_HEAD + b"[" * 100_000 + b"]" * 100_000 + b"}"),
     "at once"),
    ("a 10,000-digit integer", lambda: hs.answer(200, JSON_HEAD + b"7" * 10_000 + b"}"), "at once"),
    ("a redirect loop", lambda: hs.redirect(lambda r: "/" if r.path == "/hop" else "/hop"),
     "at the first revisit"),
    ("a redirect to another host", lambda: hs.redirect("http://localhost:9/"), "at once"),
    ("429 on one method, Retry-After: 0", lambda: hs.rate_limited("0"), "4T plus back-off"),
    ("429 on one method, no Retry-After", hs.rate_limited, "4T plus back-off (0.5 + 1 + 2 s)"),
    ("a connection reset mid-answer", lambda: hs.reset_after(PARTIAL, pause=0.05), "T, or at once"),
    ("a wrong content type", lambda: hs.answer(200, JSON_HEAD + b"1}", content_type="text/plain"),
     "T, or at once"),
    ("an HTML error page", lambda: hs.answer(502, HTML_502, content_type="text/html"), "T, or at once"),
]


def one_request(make: Callable[[], hs.Handler], timeout: float, repeat: int) -> tuple[list[float], str]:
    """Wall seconds of each `Target.call` against a fresh server with the behaviour, and how the last one ended."""
    times, ended = [], ""
    for _ in range(repeat):
        with hs.serve(make()) as server, Target(server.url, timeout=timeout) as target:
            started = time.perf_counter()
            exchange = target.call("getIndexerHealth")
            times.append(time.perf_counter() - started)
        ended = exchange.error or f"HTTP {exchange.status}, {exchange.json_error or 'JSON'}"
    return times, ended[:60]


def requests_table(timeout: float, repeat: int) -> None:
    print(f"\nOne request, T = {timeout:g} s, {repeat} call(s) each: wall time of Target.call")
    print("| behaviour | median | max | in T | README bound | how it ended |\n|---|---:|---:|---:|---|---|")
    for name, make, bound in REQUESTS:
        times, ended = one_request(make, timeout, repeat)
        median = statistics.median(times)
        print(f"| {name} | {median:.3f} s | {max(times):.3f} s | {median / timeout:.2f} T | {bound} | {ended} |",
              flush=True)


def one_run(upstream: str, method: str, behaviour: hs.Handler | None, timeout: float, everything: bool) -> str:
    """One `csi run` through the proxy; a line with its wall time, exit code and the proxy's hits."""
    with tempfile.TemporaryDirectory() as cwd:
        if behaviour is None:
            run = start("--target", upstream, "--timeout", str(timeout), *FAMILIES, cwd=Path(cwd))
            done, hits = run.finish(), 0
        else:
            with proxied(upstream, method, behaviour) as proxy:
                args = () if everything else FAMILIES
                run = start("--target", proxy.url, "--timeout", str(timeout), *args, cwd=Path(cwd))
                done = run.finish()
            hits = proxy.hits
    return f"{done.seconds:.1f} s, exit {done.code}, {hits} requests met the behaviour"


def runs_table(timeout: float) -> None:
    print(f"\nWhole runs, T = {timeout:g} s (wall time of `csi run`, from start to exit)")
    runs = [
        ("clean, narrowed to transport, schema, health", "-", None, False),
        ("getIndexerHealth never answers, narrowed", "getIndexerHealth", hs.silent(), False),
        ("429 on every request, no Retry-After (stops, exit 3)", EVERY, hs.rate_limited(), True),
        ("429 on every request, Retry-After: 1 (stops, exit 3)", EVERY, hs.rate_limited("1"), True),
    ]
    with serving(None) as upstream:
        for name, method, behaviour, everything in runs:
            print(f"- {name}: {one_run(upstream, method, behaviour, timeout, everything)}", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=2.0, help="T, the Target timeout (csi run --timeout)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-runs", action="store_true", help="skip the whole `csi run`s")
    args = parser.parse_args()
    print(f"machine: {machine()}", flush=True)
    requests_table(args.timeout, args.repeat)
    if not args.no_runs:
        runs_table(args.timeout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
