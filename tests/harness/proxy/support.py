"""What the proxy's tests share: `csi proxy` started as a user starts it, and requests replayed through a proxy."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from csi_conformance.groundwork.jsonio import loads

from tests.client.support import free_port
from tests.harness.csi_process import HANG_GUARD
from tests.reference_server.support import wait_until_listening

CSI = Path(sys.executable).with_name("csi")
KEY = "proxy-upstream-key-93f1c0"
"""The upstream's API key in these tests: no byte the proxy writes may hold it."""


@dataclass
class Proxy:
    url: str
    process: subprocess.Popen
    stdout: Path
    stderr: Path

    def stop(self) -> int:
        """SIGTERM, as a service manager stops it; its exit code."""
        self.process.send_signal(signal.SIGTERM)
        return self.process.wait(HANG_GUARD)

    def written(self) -> bytes:
        return self.stdout.read_bytes() + self.stderr.read_bytes()


@contextmanager
def csi_proxy(upstream: str, *args: str, cwd: Path) -> Iterator[Proxy]:
    """`csi proxy --upstream UPSTREAM ARGS` on a free loopback port; stopped with SIGTERM at the end."""
    port = free_port()
    stdout, stderr = cwd / "proxy.out", cwd / "proxy.err"
    with stdout.open("wb") as out, stderr.open("wb") as err:
        process = subprocess.Popen([str(CSI), "proxy", "--upstream", upstream, "--port", str(port), *args], cwd=cwd,
                                   stdout=out, stderr=err, env={**os.environ, "CSI_PROVER": "none"})
    proxy = Proxy(f"http://127.0.0.1:{port}", process, stdout, stderr)
    try:
        wait_until_listening(port, process)
        yield proxy
    finally:
        if process.poll() is None:
            proxy.stop()


def recorded(path: Path, at_least: int = 0) -> list[dict[str, Any]]:
    """The lines of a recording; with `at_least`, once it holds that many (the proxy records each exchange on its
    judge's thread, after the app has its answer)."""
    deadline = time.monotonic() + HANG_GUARD
    while True:
        text = path.read_text() if path.exists() else ""
        lines = [loads(line) for line in text[:text.rfind("\n") + 1].splitlines() if line.strip()]  # whole lines
        if len(lines) >= at_least or time.monotonic() > deadline:
            return lines
        time.sleep(0.02)


def replay(url: str, bodies: list[bytes]) -> list[httpx.Response]:
    """Each body POSTed to `url` in turn, as the app sent it."""
    with httpx.Client(timeout=HANG_GUARD, trust_env=False) as client:
        return [client.post(url, content=body, headers={"content-type": "application/json"}) for body in bodies]


def report(folder: Path) -> dict[str, Any]:
    return loads((folder / "report.json").read_bytes())


def found(report_json: dict[str, Any]) -> set[tuple[str, str | None, str]]:
    """(check id, path, title) of every finding of a report.json."""
    return {(f["check_id"], f.get("path"), f["title"]) for f in report_json["findings"]}
