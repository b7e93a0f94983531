"""How long the default certification takes across a network, one request at a time and several together.

The reference server (`csi serve`, no prover) sits behind a loopback proxy that holds every answer
DELAY ms before passing it on (a remote endpoint's round trip); `csi run --skip crypto.groth16-proof`
with `CSI_PROVER=none` certifies it through the proxy, with `--concurrency 1` and at the default. The
table gives each run's wall time, the harness's own CPU (user + system of the `csi run` process), the
requests it sent and its exit code; and the CPU `csi --help` takes before it prints.

    .venv/bin/python benchmarks/bench_concurrency.py                    # 0, 50, 100, 300 ms
    .venv/bin/python benchmarks/bench_concurrency.py --slow-sequential  # also 300 ms one at a time (~13 min)
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from csi_conformance.harness.engine.options import DEFAULT_CONCURRENCY

from benchmarks._common import HOST, csi, free_port, machine, server

DELAYS_MS = (0, 50, 100, 300)


@contextlib.contextmanager
def delaying_proxy(upstream: str, delay: float) -> Iterator[str]:
    """A keep-alive HTTP/1.1 proxy on loopback that forwards each request and holds its answer `delay` s."""
    loop = asyncio.new_event_loop()
    ready = threading.Event()
    port = free_port()
    state: dict[str, object] = {}

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        client = state["client"]
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                lines = head.decode("latin-1").split("\r\n")
                method, target, _ = lines[0].split(" ", 2)
                headers = dict(line.split(":", 1) for line in lines[1:] if ":" in line)
                length = int(next((v for k, v in headers.items() if k.lower() == "content-length"), "0"))
                body = await reader.readexactly(length) if length else b""
                wanted = {k.strip(): v.strip() for k, v in headers.items()
                          if k.strip().lower() in ("content-type", "accept", "user-agent")}
                answer = await client.request(method, upstream.rstrip("/") + target, content=body, headers=wanted)
                await asyncio.sleep(delay)  # the answer is held, as a remote endpoint's round trip holds it
                content = answer.content
                kind = answer.headers.get("content-type", "application/json")
                writer.write(f"HTTP/1.1 {answer.status_code} {answer.reason_phrase}\r\ncontent-type: {kind}\r\n"
                             f"content-length: {len(content)}\r\n\r\n".encode("latin-1") + content)
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()

    async def main() -> None:
        state["client"] = httpx.AsyncClient(limits=httpx.Limits(max_connections=64), timeout=60.0)
        proxy = await asyncio.start_server(handle, HOST, port)
        state["server"] = proxy
        ready.set()
        async with proxy:
            await proxy.serve_forever()

    def serve() -> None:
        with contextlib.suppress(RuntimeError):  # the loop stopped before its server did: the benchmark is over
            loop.run_until_complete(main())

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    ready.wait(10)
    try:
        yield f"http://{HOST}:{port}/"
    finally:
        loop.call_soon_threadsafe(loop.stop)


def certify(url: str, concurrency: int) -> dict[str, object]:
    """One `csi run` through the proxy: wall time, its CPU, its requests and exit code."""
    with tempfile.TemporaryDirectory() as folder:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        done = subprocess.run(csi("run", "--target", url, "--skip", "crypto.groth16-proof", "--concurrency",
                                  str(concurrency), "--report-dir", folder), cwd=folder,
                              env={**os.environ, "CSI_PROVER": "none"}, capture_output=True, check=False)
        wall = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        report = json.loads((Path(folder) / "report.json").read_text())
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"wall": wall, "cpu": cpu, "requests": report["requests"], "code": done.returncode}


def help_cpu(repeat: int = 5) -> float:
    """The median CPU seconds of `csi --help`."""
    spent = []
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(csi("--help"), capture_output=True, check=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        spent.append((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))
    return sorted(spent)[len(spent) // 2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--slow-sequential", action="store_true", help="also run 300 ms one request at a time")
    args = parser.parse_args()
    print(machine())
    print(f"csi --help: {help_cpu():.2f} s CPU (median of 5)")
    port = free_port()
    print("| one-way delay | concurrency | wall s | harness CPU s | requests | exit |")
    print("|---:|---:|---:|---:|---:|---:|")
    with server(csi("serve", "--port", str(port), "--prover", "none"), port) as upstream:
        for delay_ms in DELAYS_MS:
            with delaying_proxy(upstream.url, delay_ms / 1000) as url:
                for concurrency in (1, DEFAULT_CONCURRENCY):
                    if delay_ms == 300 and concurrency == 1 and not args.slow_sequential:
                        continue
                    row = certify(url, concurrency)
                    print(f"| {delay_ms} ms | {concurrency} | {row['wall']:.1f} | {row['cpu']:.1f} | {row['requests']} "
                          f"| {row['code']} |", flush=True)


if __name__ == "__main__":
    main()
