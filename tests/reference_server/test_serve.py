"""Running the app under uvicorn on real loopback sockets: `running_server` and `serve`."""

from __future__ import annotations

import contextlib
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from csi_conformance.reference_server.app import create_app
from csi_conformance.reference_server.options import ServerOptions
from csi_conformance.reference_server.serve import _config, running_server
from starlette.applications import Starlette

from .support import HANG_GUARD, wait_until_listening

ROOT = Path(__file__).resolve().parents[2]
SLOT = b'{"jsonrpc":"2.0","id":1,"method":"getIndexerSlot"}'


def slot_dispatch(method: str, params: Any) -> int:
    return 5


def app() -> Starlette:
    return create_app(slot_dispatch, ServerOptions())


def refused(url: str) -> bool:
    try:
        httpx.post(url, content=SLOT, timeout=HANG_GUARD)
    except httpx.ConnectError:
        return True
    return False


def test_running_server_serves_on_a_free_loopback_port_then_stops() -> None:
    with running_server(app()) as url:
        host, port = url.removeprefix("http://").rsplit(":", 1)
        assert (host, int(port) > 0) == ("127.0.0.1", True)
        answer = httpx.post(url + "/getIndexerSlot", content=SLOT, timeout=HANG_GUARD)
        assert answer.json() == {"jsonrpc": "2.0", "id": 1, "result": 5}
        assert any(thread.name == "reference-server" for thread in threading.enumerate())
    assert refused(url)
    assert not any(thread.name == "reference-server" for thread in threading.enumerate())


def test_two_servers_run_side_by_side() -> None:
    with running_server(app()) as first, running_server(app()) as second:
        assert first != second
        assert httpx.post(first, content=SLOT, timeout=HANG_GUARD).status_code == 200
        assert httpx.post(second, content=SLOT, timeout=HANG_GUARD).status_code == 200


def test_the_server_stops_when_the_body_raises() -> None:
    with pytest.raises(LookupError), running_server(app()) as url:
        raise LookupError("inside")
    assert refused(url)


def test_a_taken_port_is_an_error() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        with pytest.raises(OSError), running_server(app(), port=taken.getsockname()[1]):
            pass


def test_an_app_that_fails_to_start_is_reported() -> None:
    @contextlib.asynccontextmanager
    async def broken(_: Starlette) -> AsyncIterator[None]:
        raise RuntimeError("cannot load the ledger")
        yield  # pragma: no cover

    with pytest.raises(RuntimeError, match="stopped while starting"), running_server(Starlette(lifespan=broken)):
        pass


def test_config_uses_the_fast_stack_and_no_access_log() -> None:
    config = _config(app(), "127.0.0.1", 8784)
    assert (config.http, config.loop) == ("httptools", "uvloop")  # both are installed with uvicorn[standard]
    assert config.access_log is False
    assert config.log_level == "warning"


SERVE_SCRIPT = """
import sys
from csi_conformance.reference_server.app import create_app
from csi_conformance.reference_server.options import ServerOptions
from csi_conformance.reference_server.serve import serve

def dispatch(method, params):
    if method == "boom":
        raise RuntimeError("kaboom")
    return 5

serve(create_app(dispatch, ServerOptions(api_key=sys.argv[2])), port=int(sys.argv[1]))
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_serve_runs_in_the_foreground_and_never_logs_the_key() -> None:
    key, port = "serve-key-51xQ", free_port()
    url = f"http://127.0.0.1:{port}/?api-key={key}"
    process = subprocess.Popen(
        [sys.executable, "-c", SERVE_SCRIPT, str(port), key], cwd=ROOT, stderr=subprocess.PIPE, text=True
    )
    try:
        wait_until_listening(port, process)
        assert httpx.post(url, content=SLOT, timeout=HANG_GUARD).json()["result"] == 5
        boom = httpx.post(url, content=b'{"jsonrpc":"2.0","id":2,"method":"boom"}', timeout=HANG_GUARD)
        assert boom.status_code == 500
    finally:
        process.terminate()
        _, log = process.communicate(timeout=HANG_GUARD)
    assert process.returncode in (0, -signal.SIGTERM)  # uvicorn re-raises SIGTERM once shut down
    assert "kaboom" in log and "Traceback" in log  # the fault is logged server-side
    assert key not in log  # no access log: the query string carries the key
