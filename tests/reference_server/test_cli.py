"""`csi serve` and `csi scenario generate` through the installed command."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import httpx

from reference_server.scenario import load_scenario

from .support import HANG_GUARD, wait_until_listening

CSI = Path(sys.executable).with_name("csi")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_generate_writes_a_loadable_deterministic_scenario(tmp_path: Path) -> None:
    for name in ("a.yaml", "b.yaml"):
        done = subprocess.run([CSI, "scenario", "generate", "--accounts", "40", "--seed", "3", "-o", tmp_path / name],
                              capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
    assert (tmp_path / "a.yaml").read_bytes() == (tmp_path / "b.yaml").read_bytes()
    ledger = load_scenario(str(tmp_path / "a.yaml"))
    assert len(ledger.accounts) >= 40


def test_serve_answers_with_api_key_and_refuses_without(tmp_path: Path) -> None:
    port = _free_port()
    process = subprocess.Popen([CSI, "serve", "--port", str(port), "--scenario", "empty", "--api-key", "s3cret"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        wait_until_listening(port, process)
        body = {"jsonrpc": "2.0", "id": 1, "method": "getIndexerHealth"}
        ok = httpx.post(f"http://127.0.0.1:{port}/getIndexerHealth?api-key=s3cret", json=body, timeout=HANG_GUARD)
        refused = httpx.post(f"http://127.0.0.1:{port}/", json=body, timeout=HANG_GUARD)
    finally:
        process.terminate()
        process.wait(HANG_GUARD)
    assert ok.json() == {"jsonrpc": "2.0", "id": 1, "result": "ok"}
    assert refused.status_code == 401 and refused.json() == {"error": "missing or invalid api-key"}
    assert "s3cret" not in (process.stderr.read() + process.stdout.read())


def test_serve_refuses_a_broken_scenario(tmp_path: Path) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text("version: 1\nseed: x\ntransactions: [{slot: 1, close: [nobody]}]\n")
    done = subprocess.run([CSI, "serve", "--port", str(_free_port()), "--scenario", str(broken)],
                          capture_output=True, text=True, timeout=HANG_GUARD)
    assert done.returncode == 2 and "broken.yaml" in done.stderr and "Traceback" not in done.stderr
