"""The api-key never appears in anything the harness writes: console, reports, repro lines, logs, exceptions.

A full certification runs with a recognisable key against a reference server that requires it,
through a proxy that echoes the request line (key included) back in an error page, a header and
a redirect; then every byte written is searched for the key in its raw, percent-encoded
(either hex case, form-encoded), JSON-escaped and base64 forms: stdout, stderr, every file in
the report directory, and the Python log of the run at DEBUG.
"""

from __future__ import annotations

import asyncio
import base64
import io
import json
import logging
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote, quote_plus

import pytest
from csi_conformance.harness.connection import Target
from csi_conformance.harness.connection.logs import HTTP_LOGGERS
from csi_conformance.harness.context import RunFacts, steering
from csi_conformance.harness.core.model import Status
from csi_conformance.harness.core.profile import profile_named
from csi_conformance.harness.core.registry import Registry
from csi_conformance.harness.engine.runner import run
from csi_conformance.harness.report import write_reports
from csi_conformance.harness.report.junit import finding_text
from csi_conformance.reference_server.options import ServerOptions

from tests.harness import hostile_servers as hs
from tests.harness.broken import serving
from tests.harness.csi_process import HANG_GUARD, csi_run
from tests.harness.hostile_proxy import proxied

KEY = "CANARY-k3y/9f+Q=&z~LEAK"


def spellings(key: str = KEY) -> dict[str, str]:
    raw = key.encode()
    return {
        "raw": key,
        "percent-encoded": quote(key, safe=""),
        "percent-encoded, lower-case hex": quote(key, safe="").lower(),
        "path-encoded": quote(key),
        "form-encoded": quote_plus(key),
        "JSON-escaped": json.dumps(key)[1:-1].replace("/", "\\/"),
        "base64": base64.b64encode(raw).decode(),
        "base64url": base64.urlsafe_b64encode(raw).decode(),
    }


def leaks(written: dict[str, bytes]) -> list[str]:
    found = []
    for name, data in written.items():
        text = data.decode("utf-8", "replace")
        found += [f"{form} key in {name}" for form, spelling in spellings().items() if spelling in text]
    return found


async def echo_key_everywhere(request: hs.Received, writer: asyncio.StreamWriter) -> None:
    """A 500 HTML page that quotes the request line, with the request target in a header too."""
    page = f"<html><body><h1>500</h1><p>POST {request.target} failed</p></body></html>".encode()
    writer.write(hs.response(500, page, content_type="text/html", headers={"X-Upstream-Url": request.target}))
    await writer.drain()


@pytest.fixture(scope="module")
def upstream() -> Iterator[str]:
    with serving(None, ServerOptions(api_key=KEY)) as url:
        yield url


def test_full_certification_writes_the_key_nowhere(upstream: str, tmp_path: Path) -> None:
    """Protection: the `Redactor` applied everywhere the key can surface: URLs, response headers
    and bodies, error messages and curl lines in `Target`, check messages in the runner, and the
    log filter of `harness/connection/logs.py` on the HTTP stack's own records. The key is given
    through $CSI_API_KEY, as CI does."""
    with proxied(upstream, "getIndexerHealth", echo_key_everywhere) as proxy:
        done = csi_run("--target", proxy.url, "--timeout", str(HANG_GUARD), cwd=tmp_path, log=tmp_path / "debug.log",
                       env={"CSI_API_KEY": KEY})
    assert done.code == 1, done.explain()  # the echoing 500 page is a finding
    assert proxy.hits >= 1 and proxy.received[0].query["api-key"] == KEY  # the key did travel, to the target
    written = done.written()
    assert {"stdout", "stderr", "debug.log", "out/report.json", "out/junit.xml", "out/report.html"} <= set(written)
    log = written["debug.log"].decode()
    assert "HTTP Request: POST" in log and "api-key=REDACTED" in log  # the log holds the URLs, redacted
    report = done.report
    assert report["requests"] >= 300 and done.findings("schema.error-body", "getIndexerHealth")
    assert any("${CSI_API_KEY}" in (f["curl"] or "") for f in report["findings"])
    assert leaks(written) == []


def test_http_stack_log_records_are_redacted(tmp_path: Path) -> None:
    """Protection: the log filter of `harness/connection/logs.py`: the wire logs each request's URL at INFO
    and each response's headers at DEBUG; with logging at DEBUG neither may carry the key."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    root = logging.getLogger()
    levels = {name: logging.getLogger(name).level for name in ("", *HTTP_LOGGERS)}
    root.addHandler(handler)
    for name in levels:
        logging.getLogger(name).setLevel(logging.DEBUG)
    try:
        with hs.serve(hs.echo()) as server, Target(server.url, api_key=KEY, timeout=HANG_GUARD) as target:
            exchange = target.call("getIndexerSlot")
    finally:
        root.removeHandler(handler)
        for name, level in levels.items():
            logging.getLogger(name).setLevel(level)
    assert exchange.status == 200 and server.requests[0].query["api-key"] == KEY
    text = stream.getvalue()
    assert "HTTP Request: POST" in text and "receive_response_headers" in text
    assert leaks({"log": text.encode()}) == []


def test_exception_messages_of_a_crashing_check_are_redacted(upstream: str, tmp_path: Path) -> None:
    """Protection: the runner's redaction of exception text, twice over: `_guarded` redacts the message
    of any exception a check raises, and `_finding` every finding message (the test fails only with
    both removed). Libraries put URLs, and so the key, in their exception messages."""
    registry = Registry()

    @registry.check("health.crash", clauses=("4.2-M18",), description="raises with the request URL in its message")
    def crash(ctx) -> None:
        url = steering.target_of(ctx)._url("/", True)  # the URL as sent, key included
        raise RuntimeError(f"cannot parse answer of {url} (key {quote_plus(KEY)})")

    with Target(upstream, api_key=KEY, timeout=HANG_GUARD) as target:
        result = run(target, RunFacts(profile=profile_named("spec")), registry=registry)
    [check] = result.checks
    assert check.status is Status.ERROR and check.findings[0].title == "The kit could not complete this check"
    assert "RuntimeError: cannot parse answer of" in finding_text(check.findings[0])
    paths = write_reports(result, tmp_path / "out")
    written = {path.name: path.read_bytes() for path in paths}
    written["message"] = finding_text(check.findings[0]).encode()
    assert leaks(written) == []


def test_same_origin_redirect_carrying_the_query_keeps_the_real_key() -> None:
    """Protection: `Target` follows the Location as sent and redacts only what it records: a same-origin
    307 that carries the query along (`/` to `/v1/?api-key=KEY`) reaches the target with the key
    itself, not with the word REDACTED, and the Exchange still shows no key."""

    def onwards(request: hs.Received) -> str:
        return "/v1" + request.target

    routes = {"getIndexerSlot": hs.sequence(hs.redirect(onwards, status=307), hs.echo())}
    with hs.serve(hs.by_method(routes, default=hs.echo())) as server, Target(server.url, api_key=KEY) as target:
        exchange = target.call("getIndexerSlot")
    assert [request.path for request in server.requests] == ["/", "/v1/"]
    assert [request.query["api-key"] for request in server.requests] == [KEY, KEY]
    assert exchange.status == 200 and exchange.redirects == (f"{server.url}/v1/?api-key=REDACTED",)
    assert leaks({"exchange": repr(exchange).encode(), "curl": exchange.curl().encode()}) == []
