"""The wires a `Target` sends its requests on: what they share (`BaseWire`), and `Wire`, one HTTP
request through an injected httpx transport (tests, in-process servers), as `httpx.Client` sends
it minus what `Target` turns off. Network targets go through `curl.CurlWire`.

The Target follows no redirect, keeps no cookie, uses no auth, proxy or base URL, and builds
every URL itself. `httpx.Client.send` would still pay for each of those layers on every request
(its cookie jar alone copies every response's headers into an `email.Message`). So `Wire` builds
the `httpx.Request` with the headers the Client would send, in the Client's order, and hands it to
the transport; what the Client still does with an unfollowed 30x (read its Location, a protocol
error when that is no URL) and its `HTTP Request:` log record (redacted by `logs`) are kept.
Parsed URLs are kept too: a run sends thousands of requests to a few URLs.
tests/harness/test_target.py compares each request with the one httpx.Client builds.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import httpx
from csi_conformance.harness.connection.body import read_capped

__all__ = ["BaseWire", "Head", "Wire", "redirect_url"]

_LOG = logging.getLogger("httpx")
_CLIENT_HEADERS = (("Accept", "*/*"), ("Connection", "keep-alive"))
"""httpx.Client's own default headers, before the Target's; its Accept-Encoding and User-Agent are replaced."""
_MAX_URLS = 1024
Head = Callable[[int, list[tuple[str, str]]], None]
"""Called with a response's status and headers once its head is in."""


class BaseWire:
    """What every wire shares: the request headers, parsed URLs (a run sends thousands of requests to a
    few URLs), and `fetch`, which sends one request and reads its answer within a cap."""

    def __init__(self, *, headers: dict[str, str]) -> None:
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
              cap: int, into: bytearray, on_head: Head) -> bool:
        """Send one request; give its status and headers (lower-case names, repeats joined) to `on_head`
        once they are in; append its body, decoded and capped (`CappedBody`), to `into`. True when the
        body was longer than `cap`. Raises httpx's exceptions (and `UnsupportedEncoding`) for a
        failure, after `on_head` when the head was complete."""
        raise NotImplementedError

    def close(self) -> None:
        self._closed = True

    def _check_open(self) -> None:
        if self._closed:
            raise RuntimeError("Cannot send a request, as the client has been closed.")


class Wire(BaseWire):
    """Requests through one httpx transport (a test's or an in-process server's): its pool is reused."""

    def __init__(self, transport: httpx.BaseTransport, *, timeout: float, headers: dict[str, str],
                 owns_transport: bool = True) -> None:
        super().__init__(headers=headers)
        self.transport = transport
        self._owns_transport = owns_transport
        self._extensions = {"timeout": httpx.Timeout(timeout).as_dict()}

    def fetch(self, method: str, url: str, body: bytes, content_type: str | None, *, deadline_at: float,
              cap: int, into: bytearray, on_head: Head) -> bool:
        response = self.open(method, url, body, content_type)
        try:
            on_head(response.status_code, list(response.headers.items()))
            return read_capped(response, cap, deadline_at, into)
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
        if response.has_redirect_location:
            try:
                redirect_url(request.url, response.headers["Location"])
            except BaseException:
                response.close()
                raise
        return response

    def close(self) -> None:
        super().close()
        if self._owns_transport:  # a fork's wire shares its first handle's transport
            self.transport.close()


def redirect_url(url: httpx.URL, location: str) -> httpx.URL:
    """The Location of a 30x read as httpx.Client reads it even when it does not follow it: a Location
    that is no URL is a protocol error of the target (`Target` then judges the rest of the redirect)."""
    try:
        there = httpx.URL(location)
    except httpx.InvalidURL as exc:
        raise httpx.RemoteProtocolError(f"Invalid URL in location header: {exc}.") from None
    if there.scheme and not there.host:
        there = there.copy_with(host=url.host)
    if there.is_relative_url:
        there = url.join(there)
    return there
