"""One policy, two wires: the same redirect, cap and deadline cases through libcurl and through httpx.

Each case is run on a real loopback server through each wire (`CurlWire`, and `Wire` over httpx's
own network transport) and must end in the one outcome the policy (harness/connection/policy.py)
prescribes: a wire that follows, caps or times out differently fails its half of the case.
"""

from __future__ import annotations

import gzip
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from csi_conformance.harness.connection import Target
from csi_conformance.harness.connection.policy import MAX_HEAD_BYTES, MAX_HEADER_FIELDS

from tests.harness import hostile_servers as hs
from tests.harness.csi_process import HANG_GUARD

KEY = "k3y/with&odd=chars"
CAP = 1024
DEADLINE = 0.5
WIRES = {"libcurl": None, "httpx": httpx.HTTPTransport}
"""The wire a Target uses: libcurl when no transport is given, else httpx through the transport."""


@dataclass(frozen=True)
class Case:
    """A server behaviour (made with the URL of another origin at hand), the Target's options, and the
    outcome both wires must record: (status, error kind, error, redirects followed, body bytes)."""

    handler: Callable[[str], hs.Handler]
    outcome: tuple[Any, ...]
    requests: int = 1
    options: dict[str, Any] = field(default_factory=dict)


def _head(*fields: tuple[str, str], body: bytes = b"{}") -> bytes:
    lines = [f"{name}: {value}" for name, value in (*fields, ("Content-Length", str(len(body))))]
    return ("HTTP/1.1 200 OK\r\n" + "".join(f"{line}\r\n" for line in lines) + "\r\n").encode() + body


def _big(size: int) -> bytes:
    """A head whose names and values hold `size` bytes: "X-Big" and its value, "Content-Length" and "2"."""
    return _head(("X-Big", "a" * (size - len("X-Big") - len("Content-Length") - len("2"))))


def _many(count: int) -> bytes:
    """A head of `count` fields, Content-Length included."""
    return _head(*((f"X-{n}", "v") for n in range(count - 1)))


def _hop(req: hs.Received) -> str:
    return f"/r{int(req.path[2:] or 0) + 1}"


CASES = {
    # redirects
    "307 same origin is followed, key kept": Case(
        lambda _: hs.sequence(hs.redirect("/v2?x=1"), hs.echo()),
        (200, None, None, ("{url}/v2?x=1&api-key=REDACTED",), None), requests=2),
    "308 same origin is followed": Case(
        lambda _: hs.sequence(hs.redirect("/v2", status=308), hs.echo()),
        (200, None, None, ("{url}/v2?api-key=REDACTED",), None), requests=2),
    **{f"{status} is recorded, not followed": Case(
        lambda _, status=status: hs.redirect("/elsewhere", status=status), (status, None, None, (), 0))
       for status in (301, 302, 303)},
    "307 without a Location is recorded": Case(
        lambda _: hs.raw(b"HTTP/1.1 307 Temporary Redirect\r\nContent-Length: 0\r\n\r\n"), (307, None, None, (), 0)),
    "another origin is refused, key never sent": Case(
        lambda elsewhere: hs.redirect(f"{elsewhere}/?api-key={quote(KEY, safe='')}"),
        (307, "redirect", "redirect to another host refused: {elsewhere}/?api-key=REDACTED", (), 0)),
    "another scheme is refused": Case(
        lambda elsewhere: hs.redirect(elsewhere.replace("http://", "https://")),
        (307, "redirect", "redirect to another host refused: {elsewhere_tls}", (), 0)),
    "a loop": Case(
        lambda _: hs.sequence(hs.redirect("/a"), hs.redirect("/")),
        (307, "redirect", "redirect loop: back to {url}/?api-key=REDACTED", ("{url}/a?api-key=REDACTED",), 0),
        requests=2),
    "too many hops": Case(
        lambda _: hs.redirect(_hop),
        (307, "redirect", "too many redirects: more than 2", ("{url}/r1?api-key=REDACTED", "{url}/r2?api-key=REDACTED"),
         0), requests=3, options={"max_redirects": 2}),
    "no redirect allowed": Case(
        lambda _: hs.redirect(_hop), (307, "redirect", "too many redirects: more than 0", (), 0),
        options={"max_redirects": 0}),
    "a Location that is no URL": Case(
        lambda _: hs.redirect("http://[::1", status=301),
        (None, "protocol", "protocol error: Invalid URL in location header: Invalid port: ':1'.", (), 0)),
    "a Location that is no URL, body cut short": Case(
        lambda _: hs.raw(b"HTTP/1.1 302 Found\r\nLocation: http://[::1\r\nContent-Length: 9\r\n\r\n{}"),
        (None, "protocol", "protocol error: Invalid URL in location header: Invalid port: ':1'.", (), 0)),
    # the body cap
    "a body at the cap": Case(lambda _: hs.answer(200, bytes(CAP)), (200, None, None, (), CAP)),
    "a body one byte over the cap": Case(
        lambda _: hs.answer(200, bytes(CAP + 1)), (200, "too-large", f"response over {CAP} bytes", (), CAP)),
    "a chunked body over the cap": Case(
        lambda _: hs.raw(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                         + b"".join(b"100\r\n" + bytes(256) + b"\r\n" for _ in range(8)) + b"0\r\n\r\n"),
        (200, "too-large", f"response over {CAP} bytes", (), CAP)),
    "a gzip body over the cap once decoded": Case(
        lambda _: hs.answer(200, gzip.compress(bytes(4 * CAP)), headers={"Content-Encoding": "gzip"}),
        (200, "too-large", f"response over {CAP} bytes", (), CAP)),
    # the head caps
    "a head at the byte cap": Case(lambda _: hs.raw(_big(MAX_HEAD_BYTES)), (200, None, None, (), 2)),
    "a head one byte over": Case(
        lambda _: hs.raw(_big(MAX_HEAD_BYTES + 1)),
        (None, "protocol", f"protocol error: response head over {MAX_HEAD_BYTES} bytes", (), 0)),
    "a head at the field cap": Case(lambda _: hs.raw(_many(MAX_HEADER_FIELDS)), (200, None, None, (), 2)),
    "a head one field over": Case(
        lambda _: hs.raw(_many(MAX_HEADER_FIELDS + 1)),
        (None, "protocol", f"protocol error: response head over {MAX_HEADER_FIELDS} header fields", (), 0)),
    # the deadline
    "never answers": Case(lambda _: hs.silent(), (None, "timeout", f"timeout after {DEADLINE} s (no response)", (), 0),
                          options={"timeout": DEADLINE}),
    "drips its body": Case(
        lambda _: hs.drip(b" " * 100, interval=DEADLINE / 5, after=hs.response(200, b" " * 100)[:-100]),
        (200, "timeout", f"timeout after {DEADLINE} s (N body bytes read)", (), None), options={"timeout": DEADLINE}),
}


def _outcome(ex: Any, url: str, elsewhere: str, *, body: bool) -> tuple[Any, ...]:
    """What the case pins, the servers' URLs as placeholders (`body`: the body's length is pinned)."""

    def placed(text: str) -> str:
        text = text.replace(elsewhere.replace("http://", "https://"), "{elsewhere_tls}")
        text = re.sub(r"\(\d+ body bytes read\)", "(N body bytes read)", text)
        return text.replace(url, "{url}").replace(elsewhere, "{elsewhere}")

    error = None if ex.error is None else placed(ex.error)
    return ex.status, ex.error_kind, error, tuple(placed(hop) for hop in ex.redirects), len(ex.body) if body else None


@pytest.mark.parametrize("wire", WIRES.values(), ids=WIRES.keys())
@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_both_wires_apply_the_one_policy(case: Case, wire: type[httpx.BaseTransport] | None) -> None:
    with hs.serve(hs.echo()) as elsewhere, hs.serve(case.handler(elsewhere.url)) as server:
        options = {"api_key": KEY, "timeout": HANG_GUARD, "max_response_bytes": CAP, **case.options}
        with Target(server.url, transport=wire() if wire else None, **options) as target:
            ex = target.call("getIndexerSlot")
        assert type(target._wire).__name__ == ("Wire" if wire else "CurlWire")
        assert _outcome(ex, server.url, elsewhere.url, body=case.outcome[-1] is not None) == case.outcome, ex.error
        assert len(server.requests) == case.requests
        assert all(request.query.get("api-key") == KEY for request in server.requests)
    assert elsewhere.requests == []  # no case reaches another origin, so the key never leaves
