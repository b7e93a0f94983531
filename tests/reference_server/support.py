"""Asking the reference's methods directly, with every answer checked on the way."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from csi_conformance.groundwork.jsonio import dumps, loads
from csi_conformance.reference_server.methods import call, readings
from csi_conformance.reference_server.options import ServerOptions
from csi_conformance.reference_server.scenario import Scenario
from csi_conformance.schema import Contract

OPTIONS = ServerOptions()
HANG_GUARD = 120.0
"""Seconds after which a wait that must end gives up, only so that a broken server fails a test instead
of hanging it: never a bound on speed (a busy machine stays far inside it)."""


def wait_until_listening(port: int, process: subprocess.Popen) -> None:
    """Poll until `process` accepts connections on 127.0.0.1:`port`; fail at once if it exits first."""
    give_up = time.monotonic() + HANG_GUARD
    while time.monotonic() < give_up:
        assert process.poll() is None, f"the server exited with {process.returncode} before listening"
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.05)
    raise AssertionError(f"the server did not listen on port {port} within the hang guard")


CSI = Path(sys.executable).with_name("csi")
_ANNOUNCED = re.compile(r"^csi serve: .* on (http://\S+/)$", re.MULTILINE)


@dataclass(frozen=True)
class Served:
    """A `csi serve` started by `csi_serve`: the URL its announcement named, and its stderr so far."""

    url: str
    stderr_file: Path

    @property
    def stderr(self) -> str:
        return self.stderr_file.read_text(encoding="utf-8", errors="replace")


@contextmanager
def csi_serve(*args: str | os.PathLike[str], cwd: Path, env: dict[str, str] | None = None) -> Iterator[Served]:
    """Run the installed `csi serve ARGS` until the body ends, yielding the URL it announced.

    Only the announcement says where it listens (with `--port 0`, a port only the server knows),
    so the test reaches the server exactly as a user reading that line would. stderr goes to a
    file (a pipe could fill); the server is terminated and reaped on exit.
    """
    stderr_file = cwd / "serve-stderr.txt"
    with open(stderr_file, "wb") as err:
        process = subprocess.Popen([str(CSI), "serve", *map(str, args)], cwd=cwd, stdout=subprocess.DEVNULL,
                                   stderr=err, stdin=subprocess.DEVNULL, env={**os.environ, **(env or {})})
    try:
        yield Served(_wait_for_announcement(process, stderr_file), stderr_file)
    finally:
        process.terminate()
        try:
            process.wait(HANG_GUARD)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _wait_for_announcement(process: subprocess.Popen, stderr_file: Path) -> str:
    give_up = time.monotonic() + HANG_GUARD
    while time.monotonic() < give_up:
        found = _ANNOUNCED.search(stderr_file.read_text(encoding="utf-8", errors="replace"))
        if found:
            return found.group(1)
        if process.poll() is not None:
            raise AssertionError(f"csi serve exited with {process.returncode} before announcing its address:\n"
                                 f"{stderr_file.read_text(encoding='utf-8', errors='replace')}")
        time.sleep(0.05)
    raise AssertionError("csi serve did not announce its address within the hang guard")


def run_csi(*args: str | os.PathLike[str], cwd: Path | None = None,
            env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """The installed `csi ARGS` to its end (a command that must fail fast; the hang guard only stops a hang)."""
    command: Sequence[str] = [str(CSI), *map(str, args)]
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, stdin=subprocess.DEVNULL,
                          timeout=HANG_GUARD, env={**os.environ, **(env or {})})


def ask(s: Scenario, method: str, params: Any, options: ServerOptions = OPTIONS) -> Any:
    """The `value` of a state answer (the whole result otherwise), after checking that the answer
    validates against the contract and survives the wire unchanged (big integers stay exact)."""
    result = call(s.ledger, method, params, options)
    assert Contract.default().result_validator(method, readings(Contract.default(), options)).violations(result) == []
    assert loads(dumps(result)) == result
    return result["value"] if Contract.default().method(method).state else result
