"""A hostile upstream never crashes the proxy: the app gets the bytes through or a JSON-RPC error, the exchange
is a finding, and the upstream's key is in no byte the proxy writes (answers, record, reports, console)."""

from __future__ import annotations

import socket
import subprocess
from pathlib import Path

import pytest
from csi_conformance.groundwork.jsonio import dumps
from csi_conformance.harness.proxy import ProxyOptions, running_proxy

from tests.harness import hostile_servers as hs
from tests.harness.csi_process import HANG_GUARD
from tests.harness.proxy.support import CSI, KEY, replay

REQUEST = dumps({"jsonrpc": "2.0", "id": "app-1", "method": "getIndexerSlot"}).encode()
HOSTILE = {
    "silent": (hs.silent(), "transport.answered"),
    "garbage": (hs.raw(b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n<html"), "transport.answered"),
    "reset": (hs.reset_after(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{\"jsonrpc\""), "transport.answered"),
    "bomb": (hs.gzip_bomb(1 << 27), "transport.answered"),
    "flood": (hs.rate_limited("1"), None),  # a 429 with a §7 body is an answer: passed to the app, which retries
    "echo-key": (hs.echo(), "schema.result"),
}
"""Each behaviour, and a check its exchange must be a finding of (None: an answer the app gets as it came)."""


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_upstream_is_a_finding_never_a_crash(name: str, tmp_path: Path) -> None:
    handler, check = HOSTILE[name]
    lines: list[str] = []
    options = ProxyOptions(upstream="", timeout=1.0, record=tmp_path / "t.ndjson", report_dir=tmp_path / "out")
    with hs.serve(handler) as upstream:
        options = ProxyOptions(**{**options.__dict__, "upstream": f"{upstream.url}/?api-key={KEY}"})
        with running_proxy(options, lambda finding: lines.append(repr(finding))) as (url, session):
            answers = replay(url, [REQUEST, REQUEST])
            session.drain()
    assert all(a.status_code in (200, 429, 502) for a in answers)
    assert any(a.headers.get("content-type", "").startswith("application/json") or a.status_code != 502
               for a in answers)
    if check is None:
        assert [a.status_code for a in answers] == [429, 429]
    else:
        assert check in {f.check_id for f in session.judge.result().findings}
    written = b"".join(p.read_bytes() for p in tmp_path.rglob("*") if p.is_file())
    written += b"".join(a.content for a in answers) + "".join(lines).encode()
    assert KEY.encode() not in written


def test_a_port_in_use_is_one_line_and_exit_2(tmp_path: Path) -> None:
    """Protection: `running._bind` says what is wrong and what to do, never a traceback."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run([str(CSI), "proxy", "--upstream", "http://127.0.0.1:9/", "--port", str(port)],
                              cwd=tmp_path, capture_output=True, text=True, timeout=HANG_GUARD)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.strip() == f"csi: cannot listen on 127.0.0.1:{port} (Address already in use): give another " \
                                  "--port, or 0 for any free one"
