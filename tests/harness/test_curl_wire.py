"""The network wire (`harness/connection/curl.py`, libcurl) against real loopback servers.

The same answers go through the httpx wire with httpx's own network transport, and both wires
must record the same exchange: libcurl replaced httpx for speed, not for other verdicts.
"""

from __future__ import annotations

import asyncio
import gzip
import ssl

import httpx
import pytest
import trustme
from csi_conformance.harness.connection import Target

from tests.harness import hostile_servers as hs
from tests.harness.csi_process import HANG_GUARD

ANSWERS = {
    "plain": hs.response(200, b'{"jsonrpc":"2.0","id":"csi-1","result":1}'),
    "interim 100 first": (b"HTTP/1.1 100 Continue\r\nX-Interim: 1\r\n\r\n"
                          b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nX-A: 1\r\n\r\n{}"),
    "chunked with a trailer": (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nTrailer: X-T\r\n\r\n"
                               b"2\r\n{}\r\n0\r\nX-T: late\r\n\r\n"),
    "repeated header": b"HTTP/1.1 200 OK\r\nX-D: a\r\nX-D: b\r\nContent-Length: 2\r\n\r\n{}",
    "mixed-case names": (b"HTTP/1.1 503 Busy\r\nRetry-After: 1\r\nCONTENT-TYPE: text/plain\r\n"
                         b"Content-Length: 4\r\n\r\nbusy"),
    "gzip unasked": hs.response(200, gzip.compress(b'{"a":1}'), headers={"Content-Encoding": "gzip"}),
    "not gzip at all": hs.response(200, b"plain text", headers={"Content-Encoding": "gzip"}),
    "brotli": hs.response(200, b"\x8b\x00", headers={"Content-Encoding": "br"}),
    "no content-length, closed": b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n{\"a\":2}",
    "redirect kept": b"HTTP/1.1 301 Moved\r\nLocation: /elsewhere\r\nContent-Length: 0\r\n\r\n",
    "redirect to no URL": b"HTTP/1.1 302 Found\r\nLocation: http://[::1\r\nContent-Length: 0\r\n\r\n",
    "no status line": b"HELLO\r\n\r\n",
    "body cut short": b"HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\n{}",
}


def _seen(ex) -> tuple:
    return ex.status, ex.headers, ex.body, ex.error_kind, ex.json


@pytest.mark.parametrize("data", ANSWERS.values(), ids=ANSWERS.keys())
def test_both_wires_record_the_same_exchange(data: bytes) -> None:
    with (hs.serve(hs.raw(data)) as server, Target(server.url, timeout=HANG_GUARD) as curl_target,
          Target(server.url, timeout=HANG_GUARD, transport=httpx.HTTPTransport()) as httpx_target):
        by_curl, by_httpx = curl_target.call("getIndexerSlot"), httpx_target.call("getIndexerSlot")
    assert type(curl_target._wire).__name__ == "CurlWire" and type(httpx_target._wire).__name__ == "Wire"
    assert _seen(by_curl) == _seen(by_httpx), (by_curl.error, by_httpx.error)


async def _by_http_method(request: hs.Received, writer: asyncio.StreamWriter) -> None:
    if request.method == "HEAD":
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")
    else:
        writer.write(hs.response(200, request.method.encode() + b" " + request.body))
    await writer.drain()


def test_one_connection_serves_every_method_in_turn() -> None:
    """A request's method options (POST fields, HEAD's no-body, a custom verb) never leak into the next one."""
    sequence = [("POST", b"{}"), ("GET", b""), ("HEAD", b""), ("OPTIONS", b""), ("PUT", b"[1]"), ("POST", b"[2]"),
                ("DELETE", b""), ("POST", b"")]
    with hs.serve(_by_http_method) as server, Target(server.url, timeout=HANG_GUARD) as target:
        answers = [target.send(body, http_method=method, content_type=None) for method, body in sequence]
    assert [(r.method, r.body) for r in server.requests] == sequence
    assert [a.body for a in answers] == [b"" if m == "HEAD" else m.encode() + b" " + b for m, b in sequence]
    assert all(a.status == 200 and a.error is None for a in answers)


def test_proxies_from_the_environment_are_not_used(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("http_proxy", "HTTP_PROXY", "all_proxy", "ALL_PROXY"):
        monkeypatch.setenv(name, "http://127.0.0.1:9")  # nothing listens there: a proxied request fails
    with hs.serve(hs.echo()) as server, Target(server.url, timeout=HANG_GUARD) as target:
        ex = target.call("getIndexerSlot")
    assert ex.status == 200 and ex.error is None and len(server.requests) == 1


def test_a_closed_target_sends_nothing() -> None:
    with hs.serve(hs.echo()) as server:
        target = Target(server.url, timeout=HANG_GUARD)
        target.close()
        ex = target.call("getIndexerSlot")
    assert ex.error_kind == "unexpected" and "closed" in ex.error and server.requests == []


def test_a_certificate_from_an_unknown_ca_is_refused_by_both_wires() -> None:
    """TLS is verified against certifi's CAs: a server whose certificate a throwaway CA signed is
    unreachable, by libcurl as by httpx, and nothing reaches its handler."""
    ca = trustme.CA()
    tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ca.issue_cert("127.0.0.1").configure_cert(tls)
    with (hs.serve(hs.echo(), tls=tls) as server, Target(server.url, timeout=HANG_GUARD) as curl_target,
          Target(server.url, timeout=HANG_GUARD, transport=httpx.HTTPTransport()) as httpx_target):
        answers = [curl_target.call("getIndexerSlot"), httpx_target.call("getIndexerSlot")]
    assert server.url.startswith("https://") and server.requests == []
    for ex in answers:
        assert ex.error_kind == "unreachable" and "certificate" in ex.error and ex.status is None, ex.error
