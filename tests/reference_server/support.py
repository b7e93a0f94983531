"""Asking the reference's methods directly, with every answer checked on the way."""

from __future__ import annotations

import socket
import subprocess
import time
from typing import Any

from reference_server.methods import call, result_readings
from reference_server.options import ServerOptions
from reference_server.scenario import Scenario
from schema import Contract
from schema.jsonio import dumps, loads

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


def ask(s: Scenario, method: str, params: Any, options: ServerOptions = OPTIONS) -> Any:
    """The `value` of a state answer (the whole result otherwise), after checking that the answer
    validates against the contract and survives the wire unchanged (big integers stay exact)."""
    result = call(s.ledger, method, params, options)
    assert Contract.default().result_validator(method, result_readings(options)).violations(result) == []
    assert loads(dumps(result)) == result
    return result["value"] if Contract.default().method(method).state else result
