"""What the client tests share: the installed official client, and `csi serve` started as a user starts it."""

from __future__ import annotations

import hashlib
import os
import shutil
import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.ledger_proofs.support import installed_prover
from tests.reference_server.support import HANG_GUARD, wait_until_listening

HERE = Path(__file__).parent
CSI = Path(sys.executable).with_name("csi")
STAMP = HERE / "node_modules" / ".csi-lock.sha256"
"""The sha256 of the package-lock.json that node_modules was installed from."""


def tool(name: str) -> str:
    found = shutil.which(name)
    assert found, f"{name} is required to run the official client (install Node.js 18 or later, with npm)"
    return found


def install() -> None:
    """`npm ci` unless node_modules already holds exactly what the committed lock names."""
    npm, lock = tool("npm"), hashlib.sha256((HERE / "package-lock.json").read_bytes()).hexdigest()
    if STAMP.is_file() and STAMP.read_text() == lock:
        return
    done = subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=HERE, capture_output=True, text=True,
                          timeout=5 * HANG_GUARD)
    assert done.returncode == 0, f"npm ci failed:\n{done.stderr[-4000:]}"
    STAMP.write_text(lock)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def serving(*extra: str) -> Iterator[str]:
    """`csi serve --prover light` over the default scenario, real proofs, with `extra` options; yields its URL."""
    port = free_port()
    env = {**os.environ, "CSI_PROVER_DIR": str(installed_prover().folder)}
    process = subprocess.Popen([CSI, "serve", "--port", str(port), "--scenario", "default", "--prover", "light",
                                *extra], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    try:
        wait_until_listening(port, process)
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(HANG_GUARD)


def today_inputs() -> dict:
    """What drive_today.mjs asks about over the default scenario: accounts, an address, a token account, owners, a
    mint, a signature that moved tokens, and two addresses no ledger holds."""
    from csi_conformance.groundwork.base58 import b58encode
    from csi_conformance.reference_server.export import export_document
    from csi_conformance.reference_server.scenario import open_scenario

    document = export_document(open_scenario("default"))
    labelled = {a["label"]: a for a in document["accounts"] if a.get("label")}
    by_hash = {a["hash"]: a for a in document["accounts"]}
    moved = next(t for t in document["transactions"]
                 if t["closed"] and any(by_hash[h]["tokenData"] for h in t["opened"] + t["closed"]))
    fresh = [b58encode(b"\0" + hashlib.sha256(f"today-client-{n}".encode()).digest()[1:]) for n in range(2)]
    return {"hashes": [labelled["c1"]["hash"], labelled["c4"]["hash"]], "address": labelled["r1"]["address"],
            "tokenHash": labelled["t1"]["hash"], "owner": document["keys"]["counter"],
            "tokenOwner": document["keys"]["alice"], "delegate": document["keys"]["dave"],
            "mint": document["keys"]["usdc"], "signature": moved["signature"], "freshAddresses": fresh}
