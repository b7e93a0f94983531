"""Latency `csi proxy` adds per exchange, on loopback: p50 of (through the proxy − direct), per request mix.

Method: `csi serve` (default scenario, `--prover none`: placeholder proofs, so the verification below does all
its work and then fails) and `csi proxy` in front of it run as subprocesses; this process sends a fixed mix of
the spec's methods (a getValidityProof among them) one at a time (one request in flight: the load printed),
each to the server directly and through the proxy, alternately, and reports the p50 and p90 of the
difference. Three proxies: judging off the path (the default: the answer goes back before it is judged),
judging on the path (`--header`: the answer waits for its judgement), and on the path with `--proofs verify`
(each Groth16 proof verified before the answer goes back).

    .venv/bin/python benchmarks/bench_proxy.py
    .venv/bin/python benchmarks/bench_proxy.py --rounds 50
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

import httpx
from _common import csi, free_port, machine, server

MIX = [
    ("getIndexerSlot", None),
    ("getCompressedAccountsByOwner", {"owner": "{owner}"}),
    ("getCompressedBalanceByOwner", {"owner": "{owner}"}),
    ("getCompressedAccount", {"hash": "{hash}"}),
    ("getValidityProof", {"hashes": ["{hash}"]}),
]
PROXIES = {"judged off the path": [], "judged on the path (--header)": ["--header"],
           "on the path, --proofs verify": ["--header", "--proofs", "verify"]}


def _bodies(url: str) -> list[bytes]:
    """The mix, filled with an owner and an account hash the server holds."""
    ask = lambda method, params: httpx.post(url, json={"jsonrpc": "2.0", "id": 1, "method": method,  # noqa: E731
                                                       "params": params}).json()["result"]
    latest = ask("getLatestCompressionSignatures", {})["value"]["items"][0]["signature"]
    info = ask("getTransactionWithCompressionInfo", {"signature": latest})
    account = (info["compressionInfo"]["openedAccounts"] or info["compressionInfo"]["closedAccounts"])[0]["account"]
    fill = {"{owner}": account["owner"], "{hash}": account["hash"]}
    bodies = []
    for index, (method, params) in enumerate(MIX):
        text = json.dumps(params or {})
        for mark, value in fill.items():
            text = text.replace(mark, value)
        request = {"jsonrpc": "2.0", "id": index, "method": method, **({"params": json.loads(text)} if params else {})}
        bodies.append(json.dumps(request).encode())
    return bodies


def _added(direct: str, proxied: str, bodies: list[bytes], rounds: int) -> list[float]:
    """Milliseconds the proxy added to each exchange (alternating direct and proxied sends)."""
    added = []
    with httpx.Client(trust_env=False, timeout=120) as client:
        for _ in range(rounds):
            for body in bodies:
                start = time.perf_counter()
                client.post(direct, content=body)
                middle = time.perf_counter()
                client.post(proxied, content=body)
                added.append((time.perf_counter() - middle - (middle - start)) * 1000)
    return added


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=20, help="times the mix is sent (default 20)")
    args = parser.parse_args()
    print(machine())
    print(f"load: one request in flight at a time, {args.rounds} rounds of {len(MIX)} methods "
          f"({', '.join(m for m, _ in MIX)}), sent alternately direct and through the proxy")
    port = free_port()
    with server(csi("serve", "--port", str(port), "--scenario", "default", "--prover", "none"), port) as upstream:
        bodies = _bodies(upstream.url)
        for name, flags in PROXIES.items():
            proxy_port = free_port()
            with server(csi("proxy", "--upstream", upstream.url, "--port", str(proxy_port), *flags), proxy_port) as p:
                _added(upstream.url, p.url, bodies, 2)  # warm: the contract's validators compile on first use
                added = sorted(_added(upstream.url, p.url, bodies, args.rounds))
                print(f"{name:<32} p50 {statistics.median(added):7.2f} ms   p90 "
                      f"{added[int(len(added) * 0.9)]:7.2f} ms   added per exchange ({len(added)} exchanges)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
