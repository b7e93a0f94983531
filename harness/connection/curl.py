"""HTTP/1.1 to a network endpoint through libcurl (pycurl): the wire of every `Target` on a real URL.

httpx → httpcore → h11 is pure Python, and was the largest part of the harness's own cost per
checked request; libcurl does the same exchange in a fraction of that CPU (benchmarks/README.md).
It does what the Target asked of httpx:

- HTTP/1.1 with keep-alive: one easy handle per Target, whose connection cache libcurl keeps (and
  re-sends a request once on a kept connection the server had closed, as httpcore does);
- one total deadline per request, connect and body included (`CURLOPT_TIMEOUT_MS`): a server that
  drips its status line or body a byte at a time is cut off at the deadline;
- TLS verified against certifi's CAs, as httpx's default context; no proxy from the environment;
  no redirect followed; no cookie kept; nothing decoded (`CappedBody` decodes gzip and deflate
  within the cap, and a body over the cap ends the transfer);
- the rules of `policy.Policy` as `Wire` applies them: the head is checked once it is in, before it is
  reported (a head the policy refuses ends the transfer before its body is read);
- the request headers of `Wire` (Accept, Accept-Encoding, Connection, User-Agent, Content-Type);
- a Ctrl-C or SIGTERM while a request waits ends it at once, as it ends a socket read
  (`_let_signals_in`); a handle on another thread, which no signal reaches, ends its request as soon
  as the run's `cancelled` event is set.

Failures are raised as httpx's exceptions (`_RAISED`), so `failures.describe` stays the one place
where they become an `Exchange` error; the message is libcurl's own.
"""

from __future__ import annotations

import errno
import logging
import math
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import certifi
import httpx
import pycurl
from csi_conformance.harness.connection.body import CappedBody
from csi_conformance.harness.connection.policy import Policy
from csi_conformance.harness.connection.wire import BaseWire, Head

__all__ = ["CurlWire"]

_LOG = logging.getLogger("csi_conformance.harness.connection.curl")
_RESETS = {errno.ECONNRESET, errno.EPIPE, errno.ECONNABORTED}
_RESET_TEXTS = {"Connection reset by peer": errno.ECONNRESET, "Broken pipe": errno.EPIPE}
"""libcurl's words for a reset, for when it kept no errno."""
_TLS = (35, 51, 53, 54, 58, 59, 60, 64, 66, 77, 80, 82, 83, 90, 91, 98)
_RAISED: dict[int, type[Exception]] = {
    1: httpx.RemoteProtocolError,  # "Received HTTP/0.9 when not allowed": the scheme was checked when parsed
    3: httpx.InvalidURL,
    5: httpx.ConnectError, 6: httpx.ConnectError, 7: httpx.ConnectError,
    8: httpx.RemoteProtocolError,  # weird server reply
    16: httpx.RemoteProtocolError, 92: httpx.RemoteProtocolError,  # HTTP/2 framing (never asked for)
    18: httpx.RemoteProtocolError,  # the connection closed before the body's announced end
    52: httpx.RemoteProtocolError,  # the connection closed without a response
    55: httpx.WriteError, 56: httpx.ReadError,
    61: httpx.DecodingError,
    100: httpx.RemoteProtocolError,  # a head larger than libcurl accepts
    **{code: httpx.ConnectError for code in _TLS},
}
"""libcurl result codes and the httpx exception each is raised as; others are an httpx.NetworkError."""
_CA_FILE = certifi.where()


class CurlWire(BaseWire):
    """Requests through one libcurl easy handle, whose connection cache is reused by every request.

    URLs are parsed by httpx as in `Wire` (an unsendable URL is refused before anything is sent)
    and handed to libcurl in httpx's normal form. The handle's options are set once; a request
    sets only what differs, except after a method other than POST, whose options a reset clears.
    Not thread-safe, as the Target is not.
    """

    def __init__(self, *, policy: Policy, headers: dict[str, str], cancelled: threading.Event | None = None) -> None:
        super().__init__(policy=policy, headers=headers)
        self._cancelled = cancelled or threading.Event()
        self._curl = pycurl.Curl()
        self._sent_headers = [f"{name}: {value}" for name, value in self._headers] + ["Expect:"]
        self._header_lists: dict[str | None, list[str]] = {}
        self._state = _Transfer(0, bytearray(), lambda head: None)
        self._plain = False  # whether the handle holds only the options `_options` sets

    def fetch(self, method: str, url: str, body: bytes, content_type: str | None, *, deadline_at: float,
              into: bytearray, on_head: Head) -> bool:
        self._check_open()
        text = self.written(url)
        self._state = state = _Transfer(self.policy.max_response_bytes, into, lambda head: self._check_head(text, head))
        curl = self._curl
        self._configure(method, text, body, content_type, deadline_at)
        failure: Exception | None = None
        try:
            curl.perform()
        except pycurl.error as exc:
            if self._cancelled.is_set():
                raise KeyboardInterrupt from None  # the run was interrupted while this request was out
            # its __cause__ says whether the connection was reset
            failure = state.failure or (None if state.over else _translated(exc, curl))
        finally:
            _log(method, text, state)
        head = state.head()
        if head.complete and head.status is not None:
            self._check_head(text, head)
            on_head(head.status, list(head.headers.items()))
        if failure is not None:
            raise failure
        return state.over or state.finish(head)

    def _check_head(self, url: str, head: _Head) -> None:
        self.policy.check_head(self.url(url), head.status or 0, head.headers, head.field_count, head.field_bytes)

    def close(self) -> None:
        super().close()
        self._curl.close()

    def _options(self) -> None:
        """The options every request has; `reset` keeps the connection cache."""
        curl = self._curl
        curl.reset()
        for option, value in ((pycurl.NOSIGNAL, 1), (pycurl.PROXY, ""), (pycurl.PATH_AS_IS, 1),
                              (pycurl.HTTP_VERSION, pycurl.CURL_HTTP_VERSION_1_1), (pycurl.HTTP_CONTENT_DECODING, 0),
                              (pycurl.CAINFO, _CA_FILE), (pycurl.NOPROGRESS, 0),
                              (pycurl.XFERINFOFUNCTION, self._progress)):
            curl.setopt(option, value)
        self._plain = True

    def _progress(self, *_counts: int) -> int | None:
        """libcurl's progress callback (`_let_signals_in`); a non-zero answer aborts the transfer."""
        _let_signals_in(*_counts)
        return 1 if self._cancelled.is_set() else None

    def _configure(self, method: str, url: str, body: bytes, content_type: str | None, deadline_at: float) -> None:
        if not self._plain:
            self._options()
        curl = self._curl
        left_ms = max(1, math.ceil((deadline_at - time.monotonic()) * 1000))
        curl.setopt(pycurl.URL, url)
        curl.setopt(pycurl.HEADERFUNCTION, self._state.lines.append)
        curl.setopt(pycurl.WRITEFUNCTION, self._state.write)
        curl.setopt(pycurl.TIMEOUT_MS, left_ms)
        curl.setopt(pycurl.CONNECTTIMEOUT_MS, left_ms)
        headers = self._header_lists.get(content_type)
        if headers is None:
            headers = self._header_lists[content_type] = [*self._sent_headers, f"Content-Type: {content_type or ''}"]
        curl.setopt(pycurl.HTTPHEADER, headers)
        if body or method in ("POST", "PUT", "PATCH"):
            curl.setopt(pycurl.POSTFIELDS, body)
            if method != "POST":
                curl.setopt(pycurl.CUSTOMREQUEST, method)
                self._plain = False
            return
        self._plain = False
        if method == "HEAD":
            curl.setopt(pycurl.NOBODY, 1)
        else:
            curl.setopt(pycurl.HTTPGET, 1)
            if method != "GET":
                curl.setopt(pycurl.CUSTOMREQUEST, method)


@dataclass
class _Head:
    """A response head: its status line and its headers, names in lower case, repeated ones joined
    by ", " (as httpx's `Headers.items()`); `complete` once its blank line came. `field_count` and
    `field_bytes` are what `Policy.check_head` bounds: its fields, and the bytes of their names and values."""

    status: int | None = None
    reason: str = ""
    headers: dict[str, str] = field(default_factory=dict)
    complete: bool = False
    field_count: int = 0
    field_bytes: int = 0


def _read_head(lines: list[bytes]) -> _Head:
    """The last head in the lines libcurl handed over: an interim 1xx head may come first, and a
    chunked body's trailer lines after it."""
    head, fields, size = _Head(), [], 0
    for line in lines:
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError:
            text = line.decode("latin-1")
        if text.startswith("HTTP/"):
            parts = text.split(None, 2)
            head = _Head(int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else None,
                         parts[2].strip() if len(parts) > 2 else "")
            fields, size = [], 0
        elif head.complete:
            break  # a trailer
        elif not text.strip():
            head.complete = head.status is not None
        elif text[:1] in " \t" and fields:
            fields[-1] = (fields[-1][0], f"{fields[-1][1]} {text.strip()}")
            size += 1 + len(line.strip())  # folded into the field's value after a space
        elif ":" in text:
            name, _, value = text.partition(":")
            fields.append((name.strip().lower(), value.strip()))
            raw_name, _, raw_value = line.partition(b":")
            size += len(raw_name.strip()) + len(raw_value.strip())
    head.field_count, head.field_bytes = len(fields), size
    for name, value in fields:
        head.headers[name] = f"{head.headers[name]}, {value}" if name in head.headers else value
    return head


class _Transfer:
    """What one transfer received: the head's lines as libcurl hands them over, the body capped."""

    def __init__(self, cap: int, into: bytearray, check_head: Callable[[_Head], None]) -> None:
        self.cap, self.into = cap, into
        self._check_head = check_head
        self.lines: list[bytes] = []
        self.body: CappedBody | None = None
        self.over = False
        self.failure: Exception | None = None
        self._head: tuple[int, _Head] = (-1, _Head())

    def head(self) -> _Head:
        """The head as read so far (read again only when lines came since)."""
        if self._head[0] != len(self.lines):
            self._head = (len(self.lines), _read_head(self.lines))
        return self._head[1]

    def write(self, chunk: bytes) -> int | None:
        try:
            if self.body is None:  # the head is in: the policy may refuse it before its body is read
                self._check_head(self.head())
                self.body = CappedBody(self.head().headers.get("content-encoding"), self.cap, self.into)
            if self.body.feed(chunk):
                self.over = True
                return 0  # ends the transfer
        except Exception as exc:  # a refused head, an undecodable body: raised once the transfer has ended
            self.failure = exc
            return 0
        return None

    def finish(self, head: _Head) -> bool:
        return (self.body or CappedBody(head.headers.get("content-encoding"), self.cap, self.into)).finish()


def _translated(exc: pycurl.error, curl: pycurl.Curl) -> Exception:
    """libcurl's failure as the httpx exception `failures.describe` knows, with libcurl's message."""
    code, message = exc.args[0], str(exc.args[1]) or f"libcurl error {exc.args[0]}"
    if code == pycurl.E_OPERATION_TIMEDOUT:
        connecting = message.startswith(("Connection timed out", "Resolving timed out", "Failed to connect"))
        return (httpx.ConnectTimeout if connecting else httpx.ReadTimeout)(message)
    if code == pycurl.E_UNSUPPORTED_PROTOCOL:
        message = f"no HTTP/1.x status line ({message})"
    raised = _RAISED.get(code, httpx.NetworkError)(message)
    os_errno = curl.getinfo(pycurl.OS_ERRNO) or _RESET_TEXTS.get(next((t for t in _RESET_TEXTS if t in message), ""))
    if os_errno in _RESETS:
        raised.__cause__ = ConnectionResetError(os_errno, os.strerror(os_errno))
    return raised


def _let_signals_in(_down_total: int, _down: int, _up_total: int, _up: int) -> None:
    """libcurl's progress callback, called while a transfer waits: Python runs its signal handlers
    only between its own bytecodes, so without it a Ctrl-C (or the SIGTERM a CI timeout sends) would
    wait for the request's deadline. The KeyboardInterrupt it lets in ends the transfer, and
    `perform` raises it."""


def _log(method: str, url: str, state: _Transfer) -> None:
    """The record httpx writes for each request, and the head at DEBUG (both redacted by `logs`)."""
    if _LOG.isEnabledFor(logging.INFO):
        head = state.head()
        _LOG.info('HTTP Request: %s %s "HTTP/1.1 %s %s"', method, url, head.status, head.reason)
        _LOG.debug("receive_response_headers: status=%s headers=%s", head.status, list(head.headers.items()))
