"""`csi serve` and `csi scenario generate` through the installed command."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from csi_conformance.reference_server.scenario import load_scenario

from .support import HANG_GUARD, csi_serve, run_csi, wait_until_listening

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


def test_serve_ends_on_sigterm_as_on_ctrl_c(tmp_path: Path) -> None:
    """SIGTERM (`docker stop`, a CI timeout) stops the server and ends the command as Ctrl-C does (exit 130,
    one line), so what it started is cleaned up; the default action would kill it on the spot (-15)."""
    port = _free_port()
    process = subprocess.Popen([CSI, "serve", "--port", str(port), "--scenario", "empty"], stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True)
    try:
        wait_until_listening(port, process)
    finally:
        process.terminate()
        _, err = process.communicate(timeout=HANG_GUARD)
    assert process.returncode == 130 and err.strip().splitlines()[-1] == "csi: interrupted", err


@pytest.mark.prover
def test_serve_terminated_while_the_prover_starts_leaves_nothing_behind(tmp_path: Path) -> None:
    """The prover writes its start-up log to a temporary file: a `csi serve` terminated while the prover
    starts stops it and removes the log."""
    temp = tmp_path / "tmp"
    temp.mkdir()
    process = subprocess.Popen([CSI, "serve", "--port", "0", "--prover", "light"], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, env={**os.environ, "TMPDIR": str(temp)})
    try:
        deadline = time.monotonic() + HANG_GUARD
        while not list(temp.glob("csi-prover-*.log")) and process.poll() is None:
            assert time.monotonic() < deadline, "the prover never started"
            time.sleep(0.05)
    finally:
        process.terminate()
        process.wait(HANG_GUARD)
    assert process.returncode == 130 and list(temp.iterdir()) == []


def test_serve_refuses_a_broken_scenario(tmp_path: Path) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text("version: 1\nseed: x\ntransactions: [{slot: 1, close: [nobody]}]\n")
    done = subprocess.run([CSI, "serve", "--port", str(_free_port()), "--scenario", str(broken)],
                          capture_output=True, text=True, timeout=HANG_GUARD)
    assert done.returncode == 2 and "broken.yaml" in done.stderr and "Traceback" not in done.stderr


HEALTH = {"jsonrpc": "2.0", "id": 1, "method": "getIndexerHealth"}


@pytest.mark.parametrize("port", ["99999", "65536", "-1"])
def test_serve_refuses_a_port_out_of_range(port: str, tmp_path: Path) -> None:
    """It used to announce :99999 and listen on a port nobody was told."""
    done = run_csi("serve", "--port", port, "--scenario", "empty", "--prover", "none", cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert done.stderr.splitlines() == [f"csi: --port {port} is not a port: give 1-65535, or 0 for a free one"]


def test_serve_on_port_zero_announces_the_port_it_listens_on(tmp_path: Path) -> None:
    with csi_serve("--port", "0", "--scenario", "empty", "--prover", "none", cwd=tmp_path) as served:
        port = int(served.url.removeprefix("http://127.0.0.1:").rstrip("/"))
        assert 0 < port <= 65535
        answer = httpx.post(served.url, json=HEALTH, timeout=HANG_GUARD)
    assert answer.json() == {"jsonrpc": "2.0", "id": 1, "result": "ok"}


def test_serve_announces_the_address_only_once_it_is_bound(tmp_path: Path) -> None:
    """The announcement comes last: whoever reads it can connect at once."""
    with csi_serve("--port", "0", "--scenario", "empty", "--prover", "none", cwd=tmp_path) as served:
        host, port = served.url.removeprefix("http://").rstrip("/").rsplit(":", 1)
        socket.create_connection((host, int(port)), timeout=HANG_GUARD).close()
        assert served.stderr.splitlines()[-1].endswith(f" on {served.url}")


def test_a_busy_port_is_one_line_before_any_prover_starts(tmp_path: Path) -> None:
    """A port in use used to be announced, then fail after the prover had started (tens of seconds)."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = run_csi("serve", "--port", str(port), "--scenario", "empty", "--prover", "light", cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert done.stderr.splitlines() == [f"csi: port {port} on 127.0.0.1 is already in use: stop what listens "
                                        "there, or give another --port (0 for a free one)"]

