"""Write the request bodies of the load mix, one per line, from keys found through a running server's API.

    python benchmarks/load_requests.py http://127.0.0.1:8787/ bodies.txt

The keys are discovered as the harness discovers them (latest signatures, then transactions,
then the owners' live accounts), so the mix works on any ledger. Per owner the mix holds six
point lookups, three pages and one proof: 60 % point lookups, 30 % pages, 10 % proofs. Every
request is valid, so every answer is expected to be a result; the wrk script counts the others.
"""

from __future__ import annotations

import random
import sys
from typing import Any

import httpx
from csi_conformance.groundwork.base58 import b58encode
from csi_conformance.groundwork.jsonio import dumps

OWNERS = 60


def ask(client: httpx.Client, method: str, params: Any) -> Any:
    answer = client.post("", json={"jsonrpc": "2.0", "id": "keys", "method": method, "params": params}).json()
    if "result" not in answer:
        raise SystemExit(f"{method} failed while collecting keys: {answer}")
    return answer["result"]


def owners_of(client: httpx.Client, count: int) -> list[str]:
    """Owners of accounts opened by the latest transactions, newest first, without repeats."""
    owners: list[str] = []
    for item in ask(client, "getLatestCompressionSignatures", {"limit": 200})["value"]["items"]:
        info = ask(client, "getTransactionWithCompressionInfo", {"signature": item["signature"]})["compressionInfo"]
        for opened in info["openedAccounts"]:
            owner = opened["account"]["owner"]
            if owner not in owners:
                owners.append(owner)
        if len(owners) >= count:
            break
    return owners[:count]


def mix_for(client: httpx.Client, owner: str, rng: random.Random) -> list[dict[str, Any]]:
    page = ask(client, "getCompressedAccountsByOwner", {"owner": owner, "limit": 3})["value"]
    hashes = [account["hash"] for account in page["items"]]
    if not hashes:
        return []
    calls = [("getCompressedAccount", {"hash": hashes[i % len(hashes)]}) for i in range(3)]
    calls += [("getCompressedBalance", {"hash": hashes[0]}), ("getCompressedAccountBalance", {"hash": hashes[-1]}),
              ("getCompressedBalanceByOwner", {"owner": owner})]
    calls += [("getCompressedAccountsByOwner", {"owner": owner, "limit": 50}),
              ("getCompressionSignaturesForOwner", {"owner": owner, "limit": 20}),
              ("getLatestCompressionSignatures", {"limit": 50})]
    fresh = b58encode(b"\x00" + rng.randbytes(31))  # byte 0 zero: a valid new address
    calls.append(("getValidityProof", {"hashes": hashes[:1]}) if rng.random() < 0.5
                 else ("getMultipleNewAddressProofs", [fresh]))
    return [{"jsonrpc": "2.0", "id": f"load-{n}", "method": m, "params": p} for n, (m, p) in enumerate(calls)]


def main(url: str, output: str) -> None:
    rng = random.Random(1)
    with httpx.Client(base_url=url, timeout=60) as client:
        owners = owners_of(client, OWNERS)
        bodies = [body for owner in owners for body in mix_for(client, owner, rng)]
    if not bodies:
        raise SystemExit("no keys found: is the ledger empty?")
    with open(output, "w", encoding="utf-8") as out:
        out.writelines(dumps(body) + "\n" for body in bodies)
    print(f"{len(bodies)} request bodies over {len(owners)} owners", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
