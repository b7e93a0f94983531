"""Whole `csi run`s against a real reference server behind a proxy that turns one method hostile.

Each test puts one behaviour on `getIndexerHealth` (the 429 flood: on every request) and
asserts: the exit code, a finding of the check meant to catch it on that method, the rest of
the run completed (every other check PASS, the proxy forwarded the rest), and that the api-key
appears nowhere in what the run wrote. Where the protection is that the harness gives up (no
answer, a drip, a gigabyte), the proxy's own record shows it: the client left every such
request before the behaviour was done. The docstring of each test names the protection it
covers: remove that protection and the test fails.

No test bounds wall time from above (CI is a busy 2-core machine): a run is killed and failed
only at the hang guard (`HANG_GUARD`). How long each behaviour costs a run is measured by
benchmarks/bench_hostile.py; the README's table of bounds comes from there.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote, quote_plus

import pytest
from csi_conformance.groundwork.jsonio import dumps
from csi_conformance.reference_server.options import ServerOptions

from tests.harness import hostile_servers as hs
from tests.harness.broken import serving
from tests.harness.csi_process import HANG_GUARD, Finished, csi_run, start
from tests.harness.hostile_proxy import EVERY, Proxy, Rewrite, corrupt_utf8, proxied, relabel

KEY = "h0stile-K3Y+/=~x"
METHOD = "getIndexerHealth"
T = 1.0
FAMILIES = ("--only", "transport", "--only", "schema", "--only", "health")
CAP = 8 * 1024 * 1024  # Target's default response cap
NOTHING_TO_JUDGE = frozenset({"transport.error-status", "schema.error-body"})
"""Checks these narrowed runs may give nothing to judge (no JSON-RPC error, no 4xx/5xx answer): SKIP, not PASS."""

NGINX_502 = (b"<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway"
             b"</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n")


@pytest.fixture(scope="module")
def upstream() -> Iterator[str]:
    """One reference server for the module, refusing requests without the key."""
    with serving(None, ServerOptions(api_key=KEY)) as url:
        yield url


def key_spellings() -> set[str]:
    raw = KEY.encode()
    return {KEY, quote(KEY, safe=""), quote(KEY), quote_plus(KEY), quote(KEY, safe="").lower(),
            base64.b64encode(raw).decode(), base64.urlsafe_b64encode(raw).decode()}


def assert_no_key(done: Finished) -> None:
    for name, data in done.written().items():
        text = data.decode("utf-8", "replace")
        for spelling in key_spellings():
            assert spelling not in text, f"{spelling!r} in {name}"


def hostile_run(upstream: str, tmp_path: Path, behaviour: hs.Handler | None = None, *,
                rewrite: Rewrite | None = None, timeout: float = T) -> tuple[Finished, Proxy]:
    with proxied(upstream, METHOD, behaviour, rewrite=rewrite) as proxy:
        done = csi_run("--target", proxy.url, "--api-key", KEY, "--timeout", str(timeout), *FAMILIES,
                       cwd=tmp_path, log=tmp_path / "debug.log", timeout=HANG_GUARD)
    assert_no_key(done)
    return done, proxy


def assert_caught_and_completed(done: Finished, proxy: Proxy, check: str, phrase: str, *, code: int,
                                also: frozenset[str] = frozenset()) -> None:
    """The finding, the rest of the run and the exit code."""
    messages = [f"{f['title']}: {dumps([f['expected'], f['received'], f['detail']])}"
                for f in done.findings(check, METHOD)]
    assert any(phrase in message for message in messages), done.explain()
    report = done.report
    assert report["stopped"] is None and report["interrupted"] is False
    not_passed = {c["id"] for c in report["checks"] if c["status"] != "PASS"}
    allowed = {check, "health.ok", *also, *NOTHING_TO_JUDGE}
    assert not_passed <= allowed, done.explain()
    assert done.statuses()["PASS"] >= len(report["checks"]) - len(allowed)
    assert proxy.hits >= 2 and proxy.upstream_answers >= 40  # path forms of all 19 methods, discovery
    assert done.code == code, done.explain()


def assert_gave_up_every_time(proxy: Proxy) -> None:
    """The harness hung up on every request that met the behaviour, before the behaviour was done."""
    assert proxy.outcomes() == ["client-left"] * proxy.hits


# -- no answer, slow answers, huge answers -----------------------------------------------------------

def test_no_answer_at_all(upstream: str, tmp_path: Path) -> None:
    """Protection: the per-request deadline (`--timeout`). A target that never answers one method
    is a `transport.answered` finding after T seconds per request; the run goes on."""
    done, proxy = hostile_run(upstream, tmp_path, hs.silent())
    assert_caught_and_completed(done, proxy, "transport.answered", f"timeout after {T} s (no response)", code=1)
    assert_gave_up_every_time(proxy)


def test_answer_dripped_a_byte_a_second(upstream: str, tmp_path: Path) -> None:
    """Protection: the total deadline of `CurlWire` (harness/connection/curl.py), which bounds the
    whole exchange. With `--timeout 2` and a byte every second no single read ever waits 2 s, so
    a per-read timeout would let the 122-byte answer run for two minutes per request: the
    harness must hang up on each one with most of the drip unsent."""
    answer = hs.response(200, b'{"jsonrpc":"2.0","id":"csi-1","result":"ok"}')
    drip = hs.drip(answer, interval=1.0)
    done, proxy = hostile_run(upstream, tmp_path, drip, timeout=2 * T)
    assert_caught_and_completed(done, proxy, "transport.answered", f"timeout after {2 * T} s (no response)",
                                code=1)
    assert_gave_up_every_time(proxy)
    assert drip.sent < proxy.hits * len(answer) // 2


class Gigabyte:
    """A fresh 1 GB body for every request; remembers how many bytes each answer got onto the wire."""

    def __init__(self) -> None:
        self.sent: list[int] = []

    async def __call__(self, request: hs.Received, writer: asyncio.StreamWriter) -> None:
        body = hs.Zeros(1 << 30)
        try:
            await body(request, writer)
        finally:
            self.sent.append(body.sent)


def test_one_gigabyte_body_is_capped_while_reading(upstream: str, tmp_path: Path) -> None:
    """Protection: the response size cap (`CappedBody`, 8 MiB), applied while streaming: the harness
    stops reading past the cap, so neither its memory nor the transfer grows with the body."""
    gigabyte = Gigabyte()
    done, proxy = hostile_run(upstream, tmp_path, gigabyte)
    assert_caught_and_completed(done, proxy, "transport.answered", f"response over {CAP} bytes", code=1)
    assert gigabyte.sent and max(gigabyte.sent) < 8 * CAP  # the cap plus socket buffers, never the gigabyte
    assert_gave_up_every_time(proxy)
    # about 100 MiB (its own memory: `csi_process` reads VmHWM); half the gigabyte, which a read to the end passes
    assert done.peak_rss_mib < 512, done.peak_rss_mib


# -- bodies that are not JSON the harness can read ------------------------------------------------------

def test_invalid_utf8(upstream: str, tmp_path: Path) -> None:
    """Protection: `parse_json` decodes strictly as UTF-8 (RFC 8259 §8.1) before parsing, so a 0xFF
    byte in the real answer is reported as "not UTF-8" instead of being replaced and accepted."""
    done, proxy = hostile_run(upstream, tmp_path, rewrite=corrupt_utf8)
    assert_caught_and_completed(done, proxy, "transport.answered", "not UTF-8", code=1)


def test_json_nested_100000_deep(upstream: str, tmp_path: Path) -> None:
    """Protection: `groundwork.jsonio.MAX_DEPTH` (200), checked before parsing, so no reader recurses
    into a hostile document (and no RecursionError reaches a check)."""
    body = b'{"jsonrpc":"2.0","id":"csi-1","result":' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    done, proxy = hostile_run(upstream, tmp_path, hs.answer(200, body))
    assert_caught_and_completed(done, proxy, "transport.answered", "JSON nested deeper than 200 levels", code=1)


def test_integer_with_10000_digits(upstream: str, tmp_path: Path) -> None:
    """Protection: the interpreter's integer digit limit (4300, CVE-2020-10735), which `groundwork.jsonio`
    turns into a JsonError: a 10,000-digit number is refused in linear time, never converted."""
    body = b'{"jsonrpc":"2.0","id":"csi-1","result":' + b"7" * 10_000 + b"}"
    done, proxy = hostile_run(upstream, tmp_path, hs.answer(200, body))
    assert_caught_and_completed(done, proxy, "transport.answered", "10000 digits", code=1)


def test_wrong_content_type(upstream: str, tmp_path: Path) -> None:
    """Protection: `transport.content-type` judges the label of every JSON answer (§4.1-R3); the
    body is still read as JSON, so only that check reports it (WARN: exit 0 under `--fail-on fail`)."""
    done, proxy = hostile_run(upstream, tmp_path, rewrite=relabel("text/plain; charset=utf-8"))
    assert_caught_and_completed(done, proxy, "transport.content-type", "Wrong content type", code=0)


def test_html_error_page(upstream: str, tmp_path: Path) -> None:
    """Protection: `parse_json` names an HTML body as such and `schema.error-body` judges every
    4xx/5xx body (§7): a gateway's HTML page is a finding, not a crash of the JSON reader."""
    done, proxy = hostile_run(upstream, tmp_path, hs.answer(502, NGINX_502, content_type="text/html"))
    assert_caught_and_completed(done, proxy, "schema.error-body", "Malformed HTTP 502 body", code=1)
    assert any("HTML or XML, not JSON" in dumps(f["received"]) for f in done.findings("health.ok", METHOD))


# -- redirects -----------------------------------------------------------------------------------------

def test_redirect_loop(upstream: str, tmp_path: Path) -> None:
    """Protection: the visited-URL set of `Target._attempt` (and `max_redirects`): a 307 that comes
    back to a URL already asked is a loop, ended at once."""
    bounce = hs.redirect(lambda request: "/" if request.path == "/hop" else "/hop", status=307)
    done, proxy = hostile_run(upstream, tmp_path, bounce)
    assert_caught_and_completed(done, proxy, "transport.answered", "redirect loop", code=1,
                                also=frozenset({"transport.path-forms"}))  # the loop's URL differs per path form


def test_redirect_to_another_host_never_carries_the_key(upstream: str, tmp_path: Path) -> None:
    """Protection: the same-origin rule of `Target._attempt`: a redirect to another scheme, host or
    port is refused before anything is sent there, so the api-key never leaves the target (a
    same-origin 307 that drops the query would get the key added back)."""
    with hs.serve(hs.echo()) as elsewhere:
        away = hs.redirect(lambda request: elsewhere.url + request.path, status=307)
        done, proxy = hostile_run(upstream, tmp_path, away)
    assert elsewhere.requests == []
    assert_caught_and_completed(done, proxy, "transport.answered", "redirect to another host refused", code=1,
                                also=frozenset({"transport.path-forms"}))  # the refused URL differs per path form


# -- refusals and broken connections ------------------------------------------------------------------

def test_429_on_one_method(upstream: str, tmp_path: Path) -> None:
    """Protection: the 429 retry bound (`max_429_retries`, 3): a method that is always rate limited
    costs four requests per call and becomes a finding; the rest of the run is unaffected. The target judged
    none of that method's requests, so no check judges them either (health.ok is SKIP, not FAIL) and the run
    is inconclusive, never conformant."""
    done, proxy = hostile_run(upstream, tmp_path, hs.rate_limited("0"))
    assert_caught_and_completed(done, proxy, "transport.answered", "Rate limited without end", code=3)
    assert proxy.hits % 4 == 0  # each call: the request and three retries
    assert {c["id"]: c["status"] for c in done.report["checks"]}["health.ok"] == "SKIP", done.explain()
    assert any("rate limited without end" in reason for reason in done.report["inconclusive"]), done.explain()


def test_429_on_every_request_stops_the_run(upstream: str, tmp_path: Path) -> None:
    """Protection: `STOP_AFTER["rate-limited"]` (harness/context/asking.py) with the back-off of
    `backoff_delay`: three exchanges in a row that stay 429 stop the run, inconclusive (exit 3),
    after 3 x (0.5 + 1 + 2) s without Retry-After, or 3 x 3 x Retry-After with it. The two runs,
    without and with `Retry-After: 1`, go side by side: they spend their time waiting."""
    backoffs = {None: 3.5, "1": 3.0}
    with contextlib.ExitStack() as stack:
        runs = {}
        for retry_after in backoffs:
            proxy = stack.enter_context(proxied(upstream, EVERY, hs.rate_limited(retry_after)))
            cwd = tmp_path / f"retry-after-{retry_after}"
            cwd.mkdir()
            runs[retry_after] = (proxy, start("--target", proxy.url, "--api-key", KEY, "--timeout", str(T), cwd=cwd,
                                              log=cwd / "debug.log"))
        finished = {retry_after: (proxy, started.finish()) for retry_after, (proxy, started) in runs.items()}
    for retry_after, (proxy, done) in finished.items():
        assert_no_key(done)
        assert done.code == 3 and "inconclusive" in (done.stdout + done.stderr).lower(), done.explain()
        report = done.report
        assert report["stopped"] and "429 persisted" in report["stopped"]
        assert any(f["title"] == "Rate limited without end" for f in done.findings("transport.answered"))
        assert proxy.hits == 3 * 4  # preflight and two discovery calls, each with three retries
        backoff = backoffs[retry_after]
        assert done.seconds > 3 * backoff, done.explain()  # the back-off was waited (a lower bound only)


def test_connection_reset_mid_answer(upstream: str, tmp_path: Path) -> None:
    """Protection: `failures.describe`, the one boundary where the HTTP stack's exceptions become
    an `Exchange` error: a reset half-way through a body is a "connection reset" record, not a raise."""
    partial = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 400\r\n\r\n{\"jsonrpc\":\"2."
    done, proxy = hostile_run(upstream, tmp_path, hs.reset_after(partial, pause=0.05))
    assert_caught_and_completed(done, proxy, "transport.answered", "connection reset", code=1)
