"""Reference throughput on generated ledgers, as a ratio to a bare Starlette + uvicorn JSON-RPC echo.

For each size, a scenario file of that many accounts is written (once; kept in --cache-dir) and
served with `csi serve --scenario FILE`. wrk then drives, for --seconds each:

- point: `getCompressedAccount` by the hash of a live account;
- page:  `getCompressedAccountsByOwner`, limit 100, owner = the token program (it owns every
         token account, so the page is full at every size);
- proof: `getValidityProof` with 4 live hashes;

and, right before them in the same run, the echo server (`echo_app.py`) with the point body, so
each ratio compares figures taken minutes apart on the same machine. wrk shares the CPUs with
the server. Every body is sent once first and must come back with a result.

    .venv/bin/python benchmarks/bench_reference.py                        # 10k, 100k, 1M
    .venv/bin/python benchmarks/bench_reference.py --sizes 10000 --seconds 5
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from csi_conformance.groundwork.base58 import b58encode
from csi_conformance.groundwork.jsonio import dumps
from csi_conformance.ledger_crypto import TOKEN_PROGRAM_ID
from csi_conformance.reference_server.generate import generate_scenario

from benchmarks._common import HOST, csi, free_port, machine, server, wrk

SIZES = (10_000, 100_000, 1_000_000)
POINT_TARGET = 0.5
"""A point lookup should reach half the echo's rate."""


def scenario_file(cache: Path, accounts: int, seed: int) -> Path:
    """The generated scenario as JSON (the format reads `.json` with exact integers)."""
    path = cache / f"generated-{accounts}-seed{seed}.json"
    if not path.exists():
        cache.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(".part")
        partial.write_text(dumps(generate_scenario(accounts=accounts, seed=seed)))
        partial.rename(path)
    return path


def rpc(url: str, method: str, params: object) -> object:
    answer = httpx.post(url, json={"jsonrpc": "2.0", "id": "bench", "method": method, "params": params},
                        timeout=60).json()
    if "result" not in answer:
        raise RuntimeError(f"{method} failed: {answer}")
    return answer["result"]


def bodies(url: str) -> dict[str, str]:
    """The three request bodies, with keys found through the API itself."""
    live: list[str] = []
    cursor = None
    while len(live) < 4:
        page = rpc(url, "getLatestCompressionSignatures", {"limit": 50, "cursor": cursor})["value"]
        for item in page["items"]:
            info = rpc(url, "getTransactionWithCompressionInfo", {"signature": item["signature"]})
            opened = [a["account"]["hash"] for a in info["compressionInfo"]["openedAccounts"]]
            live += [h for h in opened if rpc(url, "getCompressedAccount", {"hash": h})["value"] is not None]
        cursor = page["cursor"]
    requests = {
        "point": ("getCompressedAccount", {"hash": live[0]}),
        "page": ("getCompressedAccountsByOwner", {"owner": b58encode(TOKEN_PROGRAM_ID), "limit": 100}),
        "proof": ("getValidityProof", {"hashes": live[:4]}),
    }
    out = {}
    for name, (method, params) in requests.items():
        rpc(url, method, params)  # must succeed before it is timed
        out[name] = json.dumps({"jsonrpc": "2.0", "id": "bench", "method": method, "params": params},
                               separators=(",", ":"))
    return out


def measure_size(accounts: int, args: argparse.Namespace, echo_url: str) -> dict:
    path = scenario_file(args.cache_dir, accounts, args.seed)
    port = free_port()
    with server(csi("serve", "--host", HOST, "--port", str(port), "--scenario", str(path)), port) as ref:
        requests = bodies(ref.url)
        row: dict = {"accounts": accounts, "startup_s": round(ref.startup_s, 1)}
        drive = {"seconds": args.seconds, "connections": args.connections, "threads": args.threads}
        echo = wrk(echo_url, requests["point"], **drive)
        row["echo"] = round(echo.requests_per_s)
        for name, body in requests.items():
            result = wrk(ref.url, body, **drive)
            if result.bad_responses:
                raise RuntimeError(f"{name}: {result.bad_responses} answers were not HTTP 2xx")
            ratio = round(result.requests_per_s / echo.requests_per_s, 3)
            latency = round(result.mean_latency_ms, 2)
            row[name] = {"rps": round(result.requests_per_s), "ratio": ratio, "latency_ms": latency}
        row["rss_mib"], row["peak_rss_mib"] = (round(v) for v in ref.memory_mib())
    return row


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=list(SIZES))
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--seconds", type=int, default=10, help="wrk duration per measurement")
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--threads", type=int, default=1, help="wrk threads (they share the CPUs with the server)")
    parser.add_argument("--cache-dir", type=Path, default=Path("/tmp/csi-bench"))
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    print(f"machine: {machine()}", flush=True)
    port = free_port()
    rows = []
    echo_command = [sys.executable, str(Path(__file__).with_name("echo_app.py")), "--port", str(port)]
    with server(echo_command, port) as echo:
        for accounts in args.sizes:
            row = measure_size(accounts, args, echo.url)
            rows.append(row)
            if not args.json:
                cells = "  ".join(f"{name} {row[name]['rps']:>6,}/s ({row[name]['ratio']:.0%}, "
                                  f"{row[name]['latency_ms']:.1f} ms)" for name in ("point", "page", "proof"))
                print(f"{accounts:>9,} accounts: echo {row['echo']:,}/s  {cells}  "
                      f"server RSS {row['rss_mib']:,} MiB, started in {row['startup_s']:.1f} s", flush=True)
    if args.json:
        print(json.dumps(rows, indent=2))
    else:
        worst = min(row["point"]["ratio"] for row in rows)
        verdict = "met" if worst >= POINT_TARGET else "NOT met"
        print(f"target (point lookup >= {POINT_TARGET:.0%} of the echo): {verdict} (lowest {worst:.0%})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
