"""The wires a `Target` sends its requests on: what they share (`BaseWire`: the headers, the parsed
URLs, the `Policy` both apply), and `Wire`, one HTTP request through an injected httpx transport
(tests, in-process servers), as `httpx.Client` sends it minus what `Target` turns off. Network
targets go through `curl.CurlWire`.

The Target follows no redirect, keeps no cookie, uses no auth, proxy or base URL, and builds
every URL itself. `httpx.Client.send` would still pay for each of those layers on every request
(its cookie jar alone copies every response's headers into an `email.Message`). So `Wire` builds
the `httpx.Request` with the headers the Client would send, in the Client's order, and hands it to
the transport; what the Client still does with an unfollowed 30x (read its Location, a protocol
error when that is no URL: `Policy.check_head`, for both wires) and its `HTTP Request:` log record
(redacted by `logs`) are kept.
Parsed URLs are kept too: a run sends thousands of requests to a few URLs.
tests/harness/test_target.py compares each request with the one httpx.Client builds.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import httpx
from csi_conformance.harness.connection.body import read_capped
from csi_conformance.harness.connection.policy import Policy

__all__ = ["BaseWire", "Head", "Wire"]

_LOG = logging.getLogger("httpx")
_CLIENT_HEADERS = (("Accept", "*/*"), ("Connection", "keep-alive"))
"""httpx.Client's own default headers, before the Target's; its Accept-Encoding and User-Agent are replaced."""
_MAX_URLS = 1024
Head = Callable[[int, list[tuple[str, str]]], None]
"""Called with a response's status and headers once its head is in."""


class BaseWire:
    """What every wire shares: the `policy` it applies, the request headers, parsed URLs (a run sends
    thousands of requests to a few URLs), and `fetch`, which sends one request and reads its answer."""

    def __init__(self, *, policy: Policy, headers: dict[str, str]) -> None:
        self.policy = policy
        self._headers = [*_CLIENT_HEADERS, *headers.items()]
        self._urls: dict[str, tuple[httpx.URL, str]] = {}
        self._closed = False

    def url(self, text: str) -> httpx.URL:
        """`text` parsed; raises httpx.InvalidURL for a URL that cannot be sent."""
        return self._parsed(text)[0]

    def written(self, text: str) -> str:
        """`text` as httpx writes it (percent-encoded, normalised); raises httpx.InvalidURL as `url` does."""
        return self._parsed(text)[1]

    def normal(self, text: str) -> str:
        """`written`, to compare a Location with; unparsable URLs stay as they are."""
        try:
            return self.written(text)
        except httpx.InvalidURL:
            return text

    def _parsed(self, text: str) -> tuple[httpx.URL, str]:
        parsed = self._urls.get(text)
        if parsed is None:
            if len(self._urls) >= _MAX_URLS:
                self._urls.clear()
            url = httpx.URL(text)
            parsed = self._urls[text] = (url, str(url))
        return parsed

    def fetch(self, method: str, url: str, body: bytes, content_type: str | None, *, deadline_at: float,
              into: bytearray, on_head: Head) -> bool:
        """Send one request; once its head is in and passed `Policy.check_head`, give its status and
        headers (lower-case names, repeats joined) to `on_head`; append its body, decoded and capped at
        the policy's `max_response_bytes` (`CappedBody`), to `into`. True when the body was longer.
        Raises httpx's exceptions (and `UnsupportedEncoding`) for a failure, after `on_head` when the
        head was complete and within the policy."""
        raise NotImplementedError

    def close(self) -> None:
        self._closed = True

    def _check_open(self) -> None:
        if self._closed:
            raise RuntimeError("Cannot send a request, as the client has been closed.")


class Wire(BaseWire):
    """Requests through one httpx transport (a test's or an in-process server's): its pool is reused."""

    def __init__(self, transport: httpx.BaseTransport, *, policy: Policy, headers: dict[str, str],
                 owns_transport: bool = True) -> None:
        super().__init__(policy=policy, headers=headers)
        self.transport = transport
        self._owns_transport = owns_transport
        self._extensions = {"timeout": httpx.Timeout(policy.timeout).as_dict()}  # each phase; the total between chunks

    def fetch(self, method: str, url: str, body: bytes, content_type: str | None, *, deadline_at: float,
              into: bytearray, on_head: Head) -> bool:
        response = self.open(method, url, body, content_type)
        try:
            on_head(response.status_code, list(response.headers.items()))
            return read_capped(response, self.policy.max_response_bytes, deadline_at, into)
        finally:
            response.close()

    def open(self, method: str, url: str, body: bytes, content_type: str | None) -> httpx.Response:
        """Send the request and return the response with its body unread: the caller reads and closes it."""
        self._check_open()
        headers = self._headers if content_type is None else [*self._headers, ("content-type", content_type)]
        request = httpx.Request(method, self.url(url), content=body or None, headers=headers,
                                extensions=self._extensions)
        response = self.transport.handle_request(request)
        response.request = request
        if _LOG.isEnabledFor(logging.INFO):
            _LOG.info('HTTP Request: %s %s "%s %d %s"', request.method, request.url, response.http_version,
                      response.status_code, response.reason_phrase)
        raw = response.headers.raw
        try:
            self.policy.check_head(request.url, response.status_code, response.headers, len(raw),
                                   sum(len(name) + len(value) for name, value in raw))
        except BaseException:
            response.close()
            raise
        return response

    def close(self) -> None:
        super().close()
        if self._owns_transport:  # a fork's wire shares its first handle's transport
            self.transport.close()

