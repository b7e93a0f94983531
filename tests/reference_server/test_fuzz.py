"""The reference server fuzzed with schemathesis over the OpenAPI export, on real loopback HTTP.

CI runs a bounded number of cases; the README shows the unbounded command. The status-based
checks are off (JSON-RPC errors come with HTTP 200) and `jsonrpc_envelope` judges the answers.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from csi_conformance.harness import fuzz
from csi_conformance.reference_server.errors import RpcError
from csi_conformance.reference_server.options import ServerOptions
from csi_conformance.reference_server.scenario import load_scenario
from csi_conformance.reference_server.serve import running_server
from csi_conformance.reference_server.wiring import app_for
from csi_conformance.schema import SCHEMA_DIR

SCHEMATHESIS = Path(sys.executable).with_name("schemathesis")
OPENAPI = SCHEMA_DIR / "dist" / "openapi.json"


def _fuzz(url: str, *, examples: int, only: str | None = None) -> subprocess.CompletedProcess:
    command = [str(SCHEMATHESIS), "--config-file", str(fuzz.CONFIG), "run", str(OPENAPI), "--url", url,
               "-n", str(examples), "--seed", "7", "--no-color"]
    if only:
        command += ["--include-path", only]
    env = {**os.environ, "SCHEMATHESIS_HOOKS": fuzz.HOOKS}
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=300)


@pytest.fixture(scope="module")
def ledger():
    return load_scenario("default")


def test_reference_survives_fuzzing(ledger) -> None:
    with running_server(app_for(ledger, ServerOptions())) as url:
        done = _fuzz(url, examples=8)
    assert done.returncode == 0, done.stdout[-3000:]
    assert "No issues found" in done.stdout


class _Broken:
    """A reference whose getIndexerSlot faults (500) and whose balance answers a string."""

    def __init__(self, ledger) -> None:
        from csi_conformance.reference_server.methods import call

        self.call, self.ledger = call, ledger

    def __call__(self, method, params):
        if method == "getIndexerSlot":
            raise RuntimeError("deliberate fault")
        result = self.call(self.ledger, method, params, ServerOptions())
        if method == "getCompressedBalanceByOwner":
            return {**result, "value": str(result["value"])}
        return result


@pytest.mark.parametrize(("path", "marker"), [("/getIndexerSlot", "Server error"),
                                               ("/getCompressedBalanceByOwner", "jsonrpc_envelope")])
def test_fuzzing_catches_a_broken_server(ledger, path: str, marker: str) -> None:
    from csi_conformance.reference_server.app import create_app

    assert RpcError  # the broken dispatcher raises a plain exception, not an RpcError
    with running_server(create_app(_Broken(ledger), ServerOptions())) as url:
        done = _fuzz(url, examples=3, only=path)
    assert done.returncode != 0
    assert marker in done.stdout, done.stdout[-2000:]
