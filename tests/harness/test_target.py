"""Target against real misbehaving servers on loopback: every behaviour is a record, never a raise or a hang.

Each hostile test checks the Exchange's error, what the server saw (a client that gave up ends
the server's turn "client-left", before a drip of minutes or a gigabyte was done), and that the
next call on the same Target still works (the servers misbehave only for the JSON-RPC method
`misbehave`). No test bounds wall time from above (a busy CI machine); how long each protection
takes is measured by benchmarks/bench_hostile.py. Lower bounds (a wait was really waited) stay.
"""

from __future__ import annotations

import gzip
import os
import socket
import subprocess
import time
import tracemalloc
from dataclasses import fields
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from functools import partial
from urllib.parse import quote, quote_plus

import httpx
import pytest
from csi_conformance.harness.connection import NOT_JSON, OMIT, Exchange, Target, client
from csi_conformance.harness.connection.client import KEPT_OF_TOO_LARGE
from csi_conformance.harness.connection.pacing import Pacer, backoff_delay
from csi_conformance.harness.core.errors import Timeout, Unreachable, UsageError

from tests.harness import hostile_servers as hs
from tests.harness.csi_process import HANG_GUARD

KEY = "s3cr3t/key+with spaces&=?#%~"
DEADLINE = 1.0  # the Target timeout of the deadline tests; every other Target waits up to HANG_GUARD
MISBEHAVE = "misbehave"
CLOCK_GRAIN = 0.02  # seconds a lower bound may fall short of the computed value (clock and timer rounding)
DRIP_INTERVAL = 0.25  # well under DEADLINE: no single read ever waits a whole deadline
PADDING = b" " * 480  # at DRIP_INTERVAL, two minutes of drip for a client without a total deadline


def hostile(handler: hs.Handler) -> hs.Handler:
    """`handler` for the method `misbehave`, a JSON-RPC echo for every other request."""
    return hs.by_method({MISBEHAVE: handler}, default=hs.echo())


class StillClock:
    """A clock for a `Pacer` that moves only when the pacer sleeps on it or a test `advance`s it.

    With `real=True` the sleeps are also slept for real, so they take time the Target sees.
    """

    def __init__(self, *, real: bool = False) -> None:
        self.now = 0.0
        self.slept: list[float] = []
        self._real = real

    def read(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        if self._real:
            time.sleep(seconds)
        self.now += seconds

    def advance(self, seconds: float) -> None:
        self.now += seconds


def assert_recovers(target: Target) -> None:
    after = target.call("getIndexerSlot")
    assert (after.status, after.error, after.json_error) == (200, None, None)
    assert after.json["result"]["method"] == "getIndexerSlot"


def assert_no_key(exchange: Exchange) -> None:
    """No spelling of the key in any field, in curl(), or in the messages."""
    texts = [repr(getattr(exchange, f.name)) for f in fields(exchange)]
    texts += [exchange.curl(), exchange.body.decode("latin-1"), str(exchange.error), str(exchange.json_error)]
    for spelling in {KEY, quote(KEY, safe=""), quote(KEY), quote_plus(KEY), quote(KEY, safe="").lower()}:
        assert not any(spelling in text for text in texts), spelling


@pytest.fixture
def target_for():
    """Make a Target on a server's URL with the test key and short timeouts; closed after the test."""
    made: list[Target] = []

    def make(url: str, **options) -> Target:
        options = {"api_key": KEY, "timeout": HANG_GUARD, **options}
        made.append(Target(url, **options))
        return made[-1]

    yield make
    for target in made:
        target.close()


# --- the key, both path forms, exact integers -------------------------------------------------------

@pytest.mark.parametrize(("path_form", "path"), [("root", "/"), ("method", "/getCompressedAccount")])
def test_key_reaches_the_server_and_nothing_else(target_for, path_form, path):
    with hs.serve(hs.echo()) as server:
        ex = target_for(server.url).call("getCompressedAccount", {"hash": "x"}, path_form=path_form)
    seen = server.requests[0]
    assert (seen.method, seen.path, seen.query["api-key"]) == ("POST", path, KEY)
    assert seen.headers["content-type"] == "application/json"
    assert (ex.status, ex.path, ex.url) == (200, path, f"{server.url}{path}?api-key=REDACTED")
    assert "REDACTED" in ex.json["result"]["target"] and "REDACTED" in ex.headers["x-request-target"]
    assert "api-key=${CSI_API_KEY}" in ex.curl()
    assert_no_key(ex)


def test_key_in_the_base_url_is_taken_and_redacted(target_for):
    with hs.serve(hs.echo()) as server:
        target = target_for(f"{server.url}/rpc/?x=1&api-key={quote(KEY, safe='')}", api_key=None)
        ex = target.call("getIndexerSlot", path_form="method")
    assert server.requests[0].path == "/rpc/getIndexerSlot"
    assert server.requests[0].query == {"x": "1", "api-key": KEY}
    assert target.base_url == f"{server.url}/rpc/?x=1&api-key=REDACTED" and target.api_key == "REDACTED"
    assert Target(server.url).api_key is None
    assert_no_key(ex)


def test_big_integers_round_trip_exactly(target_for):
    params = {"lamports": 2**64 + 1, "root": 2**254 - 1, "neg": -(2**63) - 7}
    with hs.serve(hs.echo()) as server:
        ex = target_for(server.url).call("getValidityProof", params, id=2**70)
    assert ex.json["result"]["params"] == params and ex.json["id"] == 2**70
    assert all(type(v) is int for v in ex.json["result"]["params"].values())
    assert ex.request["params"] == params


def test_omit_leaves_params_and_id_out(target_for):
    with hs.serve(hs.echo()) as server:
        target_for(server.url).call("getIndexerHealth", id=OMIT)
    assert server.requests[0].body == b'{"jsonrpc":"2.0","method":"getIndexerHealth"}'


# --- deadlines ------------------------------------------------------------------------------------

DRIPPED_BODY = PADDING + b'{"result":1}'
HANDLERS = {
    "never-answers": (hs.silent, "(no response)"),
    "drips-the-status-line": (lambda: hs.drip(hs.response(200, DRIPPED_BODY), interval=DRIP_INTERVAL),
                              "(no response)"),
    "drips-the-body": (lambda: hs.drip(DRIPPED_BODY, interval=DRIP_INTERVAL,
                                       after=hs.response(200, DRIPPED_BODY)[: -len(DRIPPED_BODY)]),
                       "body bytes read)"),
}


@pytest.mark.parametrize(("make", "phase"), HANDLERS.values(), ids=HANDLERS.keys())
def test_total_deadline(target_for, make, phase):
    """Protection: the total deadline of `CurlWire` (harness/connection/curl.py, CURLOPT_TIMEOUT_MS). A
    per-read timeout alone lets a drip run for as long as the answer lasts (two minutes here, a
    byte every quarter second): the client must hang up, with most of the drip still unsent."""
    handler = make()
    with hs.serve(hostile(handler)) as server:
        target = target_for(server.url, timeout=DEADLINE)
        ex = target.call(MISBEHAVE, {"n": 1})
        assert ex.error.startswith(f"timeout after {DEADLINE} s (") and ex.error.endswith(phase), ex.error
        assert ex.error_kind == "timeout"
        assert ex.json is NOT_JSON and ex.json_error.startswith("not parsed: timeout")
        assert isinstance(ex.target_error(), Timeout)
        assert ex.elapsed >= DEADLINE - CLOCK_GRAIN  # the deadline was waited out, not cut short
        assert_recovers(target)
        assert server.outcomes() == ["client-left", "answered"]  # the client gave up; the server had more to say
    if isinstance(handler, hs.Drip):
        assert handler.sent < len(handler.data)  # the drip never got to the end


def test_unreachable_is_a_record(target_for):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # closed again before the call: nothing listens there
    ex = target_for(f"http://127.0.0.1:{port}").call(MISBEHAVE)
    assert ex.error.startswith("unreachable: ") and ex.status is None and ex.error_kind == "unreachable"
    assert isinstance(ex.target_error(), Unreachable)
    assert_no_key(ex)


# --- size cap --------------------------------------------------------------------------------------

def test_a_gigabyte_body_is_capped(target_for):
    """Protection: `CappedBody` stops at the cap and the client hangs up on the rest; only the answer's head is kept
    (`KEPT_OF_TOO_LARGE`), not the cap, while it waits to be judged."""
    zeros = hs.Zeros(1 << 30)
    with hs.serve(hostile(zeros)) as server:
        target = target_for(server.url, max_response_bytes=8 * 1024 * 1024)
        ex = target.call(MISBEHAVE)
        assert ex.error == f"response over {8 * 1024 * 1024} bytes" and ex.error_kind == "too-large"
        assert ex.body == bytes(KEPT_OF_TOO_LARGE) and ex.json is NOT_JSON
        assert_recovers(target)
        assert server.outcomes() == ["client-left", "answered"]
    assert zeros.sent < 64 * 1024 * 1024  # the client stopped reading; the server never got far


def test_a_compression_bomb_is_capped_after_decoding(target_for):
    """Protection: `CappedBody` inflates at most up to the cap, never a whole chunk (64 MiB from 64 KiB)."""
    with hs.serve(hostile(hs.gzip_bomb(64 * 1024 * 1024))) as server:
        target = target_for(server.url, max_response_bytes=1024 * 1024)
        tracemalloc.start()
        try:
            ex = target.call(MISBEHAVE)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert ex.error == f"response over {1024 * 1024} bytes" and len(ex.body) == KEPT_OF_TOO_LARGE
        assert peak < 8 * 1024 * 1024, peak  # the cap and a few chunks, never the 64 MiB inflated
        assert_recovers(target)


def test_gzip_sent_unasked_is_decoded(target_for):
    body = b'{"jsonrpc":"2.0","id":"csi-1","result":7}'
    with hs.serve(hostile(hs.answer(200, gzip.compress(body), headers={"Content-Encoding": "gzip"}))) as server:
        ex = target_for(server.url).call(MISBEHAVE)
    assert server.requests[0].headers["accept-encoding"] == "identity"
    assert (ex.body, ex.json["result"], ex.headers["content-encoding"]) == (body, 7, "gzip")


def test_unknown_content_encoding_is_an_error(target_for):
    with hs.serve(hostile(hs.answer(200, b"\x8b\x00", headers={"Content-Encoding": "br"}))) as server:
        target = target_for(server.url)
        ex = target.call(MISBEHAVE)
        assert (ex.error, ex.error_kind, ex.body) == ("unsupported content-encoding: br", "encoding", b"\x8b\x00")
        assert_recovers(target)


# --- bodies that are not JSON -----------------------------------------------------------------------

@pytest.mark.parametrize(("body", "reason"), [
    (b'{"jsonrpc":"2.0","id":"csi-1","result":"\xff\xfe"}', "not UTF-8: invalid start byte at byte 40"),
    (b"[" * 100_000 + b"]" * 100_000, "JSON nested "),
    (b'{"jsonrpc":"2.0","id":"csi-1","result":' + b"9" * 10_000 + b"}", "Exceeds the limit"),
    (b'{"result":NaN}', "NaN is not a JSON number"),
    (b"\xef\xbb\xbf{}", "Unexpected UTF-8 BOM"),
    (b"", "empty body"),
])
def test_body_that_is_not_json(target_for, body, reason):
    with hs.serve(hostile(hs.answer(200, body))) as server:
        target = target_for(server.url)
        ex = target.call(MISBEHAVE)
        assert (ex.status, ex.error, ex.json) == (200, None, NOT_JSON) and ex.body == body
        assert reason in ex.json_error
        assert_recovers(target)


def test_wrong_content_type_is_parsed_and_recorded(target_for):
    body = b'{"jsonrpc":"2.0","id":"csi-1","result":1}'
    with hs.serve(hostile(hs.answer(200, body, content_type="text/plain"))) as server:
        ex = target_for(server.url).call(MISBEHAVE)
    assert (ex.json["result"], ex.json_error, ex.headers["content-type"]) == (1, None, "text/plain")


def test_html_error_page(target_for):
    page = b"<html><body><h1>502 Bad Gateway</h1></body></html>"
    with hs.serve(hostile(hs.answer(502, page, content_type="text/html"))) as server:
        target = target_for(server.url)
        ex = target.call(MISBEHAVE)
        assert (ex.status, ex.error, ex.body) == (502, None, page)
        assert ex.json_error.startswith("HTML or XML, not JSON (content-type text/html)")
        assert_recovers(target)


# --- broken connections ---------------------------------------------------------------------------

def test_connection_reset_mid_answer(target_for):
    head = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n"
    with hs.serve(hostile(hs.reset_after(head + b'{"jsonrpc":"2.0",'))) as server:
        target = target_for(server.url)
        ex = target.call(MISBEHAVE)
        assert ex.error.startswith("connection reset: ") and ex.error_kind == "network"
        assert ex.status == 200 and ex.json_error.startswith("not parsed: connection reset")
        assert_recovers(target)


@pytest.mark.parametrize(("data", "why"), [
    (b"", "Empty reply from server"),
    (b"HELLO THERE\r\n\r\n", "no HTTP/1.x status line"),
    (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{\"a\":\r\n", "transfer closed"),
    (b"HTTP/1.1 200 OK\r\nContent-Length: 50\r\n\r\n{}", "48 bytes missing"),
])
def test_broken_http_is_a_protocol_error(target_for, data, why):
    with hs.serve(hostile(hs.raw(data))) as server:
        target = target_for(server.url)
        ex = target.call(MISBEHAVE)
        assert ex.error.startswith("protocol error: ") and why in ex.error and ex.error_kind == "protocol"
        assert_recovers(target)


def test_an_unsendable_request_is_a_record(target_for):
    with hs.serve(hs.echo()) as server:
        target = target_for(server.url)
        ex = target.send(b"{}", path="/bad\x00path")
        assert (ex.error_kind, ex.status, server.requests) == ("request", None, [])
        assert ex.error.startswith("bad request URL: Invalid non-printable ASCII character")
        assert_recovers(target)


def test_a_crashing_transport_is_a_record():
    def explode(request: httpx.Request) -> httpx.Response:
        raise RuntimeError(f"boom at {request.url}")

    with Target("http://indexer.invalid", api_key=KEY, transport=httpx.MockTransport(explode)) as target:
        ex = target.call("getIndexerSlot")
    assert ex.error.startswith("unexpected failure: RuntimeError: boom at http://indexer.invalid/?api-key=REDACTED")
    assert_no_key(ex)


# --- redirects ------------------------------------------------------------------------------------

LOOPS = {
    "to-itself": lambda req: "/",
    "absolute": lambda req: f"http://{req.headers['host']}/",
    "two-step": lambda req: "/b" if req.path == "/a" else "/a",
}


@pytest.mark.parametrize("where", LOOPS.values(), ids=LOOPS.keys())
def test_redirect_loop(target_for, where):
    with hs.serve(hostile(hs.redirect(where))) as server:
        target = target_for(server.url)
        ex = target.call(MISBEHAVE)
        assert ex.error.startswith("redirect loop: back to ") and ex.status == 307 and ex.error_kind == "redirect"
        assert len(server.requests) <= 3
        assert_no_key(ex)
        assert_recovers(target)


def test_same_origin_307_is_followed_with_body_and_key(target_for):
    handler = hs.sequence(hs.redirect("/v2?x=1"), hs.echo())
    with hs.serve(handler) as server:
        ex = target_for(server.url).call("getIndexerSlot", {"n": 1})
    first, second = server.requests
    assert (second.method, second.path, second.body) == ("POST", "/v2", first.body)
    assert second.query == {"x": "1", "api-key": KEY}
    assert (ex.status, ex.json["result"]["method"]) == (200, "getIndexerSlot")
    assert ex.redirects == (f"{server.url}/v2?x=1&api-key=REDACTED",)


def test_301_is_recorded_not_followed(target_for):
    with hs.serve(hostile(hs.redirect("/elsewhere", status=301))) as server:
        ex = target_for(server.url).call(MISBEHAVE)
        assert (ex.status, ex.error, ex.headers["location"]) == (301, None, "/elsewhere")
        assert len(server.requests) == 1


def test_too_many_redirects(target_for):
    hop = hs.redirect(lambda req: f"/r{int(req.path[2:] or 0) + 1}")
    with hs.serve(hostile(hop)) as server:
        target = target_for(server.url, max_redirects=3)
        ex = target.call(MISBEHAVE)
        assert ex.error == "too many redirects: more than 3" and len(server.requests) == 4
        assert ex.redirects == tuple(f"{server.url}/r{n}?api-key=REDACTED" for n in (1, 2, 3))


@pytest.mark.parametrize("other", ["port", "host", "scheme"])
def test_redirect_to_another_origin_is_refused(target_for, other):
    with hs.serve(hs.echo()) as elsewhere:
        port = elsewhere.url.rsplit(":", 1)[1]
        location = {
            "port": f"{elsewhere.url}/?api-key={quote(KEY, safe='')}",
            "host": f"http://localhost:{port}/",
            "scheme": f"https://127.0.0.1:{port}/",
        }[other]
        with hs.serve(hostile(hs.redirect(location))) as server:
            target = target_for(server.url)
            ex = target.call(MISBEHAVE)
            assert ex.error.startswith("redirect to another host refused: ") and ex.error_kind == "redirect"
            assert ex.status == 307 and len(server.requests) == 1
            assert_no_key(ex)
            assert_recovers(target)
    assert elsewhere.requests == []  # never contacted, so the key never reached it


def test_unusable_redirect_location(target_for):
    """httpx reads the Location of every 30x, followed or not, and refuses one it cannot parse."""
    with hs.serve(hostile(hs.redirect("http://[::1"))) as server:
        target = target_for(server.url)
        ex = target.call(MISBEHAVE)
        assert ex.error.startswith("protocol error: Invalid URL in location header") and len(server.requests) == 1
        assert_recovers(target)


# --- 429 ------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("retry_after", "retries", "cap", "waits"), [
    ("3", 3, 0.2, [0.2, 0.2, 0.2]),  # Retry-After of 3 s, capped at 0.2 s per wait
    (None, 2, 0.8, [0.5, 0.8]),  # no Retry-After: 0.5 s, then 1 s capped at 0.8 s
])
def test_429_that_persists(target_for, monkeypatch, retry_after, retries, cap, waits):
    """Protection: the retry bound and the back-off cap: the waits the client computes are checked
    exactly, and that they were slept is a lower bound on the time the call took."""
    computed: list[float] = []

    def spy(*args: object) -> float:
        computed.append(backoff_delay(*args))
        return computed[-1]

    monkeypatch.setattr(client, "backoff_delay", spy)
    with hs.serve(hostile(hs.rate_limited(retry_after))) as server:
        target = target_for(server.url, max_429_retries=retries, max_backoff=cap)
        started = time.monotonic()
        ex = target.call(MISBEHAVE)
        took = time.monotonic() - started
        assert ex.error == f"rate limited: 429 persisted after {retries} retries" and ex.retries == retries
        assert (ex.status, ex.error_kind, ex.json) == (429, "rate-limited", {"error": "rate limited"})
        assert len(server.requests) == retries + 1 == target.requests_sent
        assert computed == waits
        assert took >= ex.elapsed >= sum(waits) - CLOCK_GRAIN  # the back-off was waited, and charged
        assert_recovers(target)


def test_429_then_success(target_for):
    with hs.serve(hs.sequence(hs.rate_limited("0"), hs.echo())) as server:
        ex = target_for(server.url).call("getIndexerSlot")
    assert (ex.status, ex.error, ex.retries, len(server.requests)) == (200, None, 1, 2)


def test_retry_after_forms():
    soon = format_datetime(datetime.now(UTC) + timedelta(seconds=30), usegmt=True)
    past = format_datetime(datetime.now(UTC) - timedelta(seconds=30), usegmt=True)
    assert backoff_delay("2", 0, 5.0) == 2.0
    assert 4.9 < backoff_delay(soon, 0, 5.0) <= 5.0 and backoff_delay(past, 0, 5.0) == 0.0
    assert [backoff_delay(None, n, 5.0) for n in range(5)] == [0.5, 1.0, 2.0, 4.0, 5.0]
    assert backoff_delay("soon", 1, 5.0) == 1.0


@pytest.mark.parametrize("value", ["²", "1.5", "-3"])
def test_a_retry_after_in_neither_form_is_the_default_back_off(value):
    """Only ASCII digits are delay-seconds: `str.isdigit` takes "²", which once crashed the back-off."""
    assert backoff_delay(value, 1, 5.0) == 1.0


# --- pacing, raw sends, curl ---------------------------------------------------------------------

def test_rate_paces_requests(target_for):
    """The n-th request reaches the server no sooner than n/rate after the first was asked (a lower bound)."""
    with hs.serve(hs.echo()) as server:
        target = target_for(server.url, rate=20.0)
        started = time.monotonic()
        for _ in range(11):
            target.call("getIndexerSlot")
    arrivals = [request.at - started for request in server.requests]
    assert len(arrivals) == 11 == target.requests_sent
    assert [n for n, at in enumerate(arrivals) if at < n / 20.0 - CLOCK_GRAIN] == [], arrivals


def test_pacer_waits_only_what_is_left_of_the_interval():
    """The schedule itself, on a clock the test moves: no wait longer than the rest of 1/rate."""
    clock = StillClock()
    pacer = Pacer(20.0, clock=clock.read, sleep=clock.sleep)
    starts = []
    for work in (0.0, 0.01, 0.05, 0.2, 0.0):  # seconds each request takes after it starts
        pacer.wait()
        starts.append(clock.now)
        clock.advance(work)
    assert starts == pytest.approx([0.0, 0.05, 0.10, 0.15, 0.35])
    assert clock.slept == pytest.approx([0.05, 0.04]) and pacer.waited == pytest.approx(0.09)
    assert Pacer(None, clock=clock.read, sleep=clock.sleep).wait() is None and len(clock.slept) == 2


def test_pacing_is_not_charged_to_the_target(target_for, monkeypatch):
    """Protection: `Exchange.elapsed` leaves out the pacer's wait. The pacer's clock stands still, so the
    second call surely waits the whole 0.25 s (for real); elapsed must be what is left of the call after it."""
    clock = StillClock(real=True)
    monkeypatch.setattr(client, "Pacer", partial(Pacer, clock=clock.read, sleep=clock.sleep))
    with hs.serve(hs.echo()) as server:
        target = target_for(server.url, rate=4.0)
        target.call("getIndexerSlot")
        started = time.monotonic()
        ex = target.call("getIndexerSlot")
        took = time.monotonic() - started
    assert clock.slept == [0.25] and ex.status == 200
    assert 0 < ex.elapsed <= took - 0.25


def test_send_raw_bytes_without_key_or_content_type(target_for):
    with hs.serve(hs.echo()) as server:
        ex = target_for(server.url).send(b'{"jsonrpc":"2.0",\xff', content_type=None, with_key=False, path="/x")
    seen = server.requests[0]
    assert (seen.body, seen.path, seen.query) == (b'{"jsonrpc":"2.0",\xff', "/x", {})
    assert "content-type" not in seen.headers
    assert (ex.request, ex.method, ex.content_type) == ('{"jsonrpc":"2.0",\\xff', None, None)


@pytest.mark.parametrize("payload", [
    {"jsonrpc": "2.0", "id": "it's", "method": "getIndexerSlot", "params": {"s": "$HOME `x` \\ %d"}},
    b"\x00\xff'%\\@bin",
    "@not-a-file",
])
def test_curl_line_repeats_the_request(target_for, payload):
    with hs.serve(hs.echo()) as server:
        ex = target_for(server.url).send(payload, http_method="POST")
    fake_curl = 'curl() { for a in "$@"; do printf "%s\\0" "$a"; done; printf "STDIN\\0"; cat; }; '
    env = {"PATH": os.environ["PATH"], "CSI_API_KEY": quote(KEY, safe="")}  # the key as it goes in a URL
    run = subprocess.run(["bash", "-c", fake_curl + ex.curl()], env=env, stdin=subprocess.DEVNULL,
                         capture_output=True, check=True)
    args, _, stdin = run.stdout.partition(b"STDIN\0")
    argv = args.split(b"\0")[:-1]
    assert f"{server.url}{server.requests[0].target}".encode() in argv
    data = argv[argv.index(b"--data-binary") + 1]
    assert (stdin if data == b"@-" else data) == server.requests[0].body
    assert_no_key(ex)


def test_cookies_are_not_kept(target_for):
    with hs.serve(hs.answer(200, b"{}", headers={"Set-Cookie": "session=abc; Path=/"})) as server:
        target = target_for(server.url)
        first, _ = target.call("a"), target.call("b")
    assert first.headers["set-cookie"].startswith("session=abc")
    assert "cookie" not in server.requests[1].headers


@pytest.mark.parametrize(("payload", "content_type"),
                         [(b"", None), (b"[1]", "text/plain"), ({"a": 1}, "application/json")])
def test_requests_are_sent_as_httpx_client_sends_them(payload, content_type):
    """`wire.Wire` sends without httpx.Client's layers (cookies, auth, redirects, base URL), so what
    goes on the wire is compared, header by header and in order, with what that Client builds."""
    seen: list[httpx.Request] = []

    def record(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, content=b"{}")

    url = "http://indexer.invalid/rpc?x=1"
    with Target(url, api_key=KEY, timeout=7.0, transport=httpx.MockTransport(record)) as target:
        target.send(payload, path="/a b/%41", content_type=content_type)
        target.call("getIndexerSlot", path_form="method")
    with httpx.Client(headers=client._HEADERS, timeout=httpx.Timeout(7.0), trust_env=False) as reference:
        for request in seen:
            built = reference.build_request(request.method, str(request.url), content=request.content or None,
                                            headers={"content-type": request.headers["content-type"]}
                                            if "content-type" in request.headers else None)
            assert (request.method, request.url, request.headers.raw, request.content, request.extensions) == (
                built.method, built.url, built.headers.raw, built.content, built.extensions)
    assert seen[0].headers.get("content-type") == content_type and seen[0].content == (
        payload if isinstance(payload, bytes) else b'{"a":1}')


def test_a_location_that_is_no_url_is_a_protocol_error_even_unfollowed():
    """As httpx.Client reads the Location of any 30x, followed or not: a 301 to `http://[::1` is a
    protocol error of the target (with no status, as httpx raises before handing the response over),
    not a 301 recorded as it is."""
    def moved(request: httpx.Request) -> httpx.Response:
        return httpx.Response(301, headers={"Location": "http://[::1"})

    with Target("http://indexer.invalid", transport=httpx.MockTransport(moved)) as target:
        ex = target.call("getIndexerSlot")
    assert (ex.status, ex.error_kind) == (None, "protocol") and "Invalid URL in location header" in ex.error


def test_base_url_and_options_are_checked():
    for bad in ("ftp://example.org", "not a url", "http://"):
        with pytest.raises(UsageError):
            Target(bad)
    with pytest.raises(UsageError):
        Target("http://example.org", timeout=0)
    with pytest.raises(UsageError):
        Target("http://example.org", rate=-1)
