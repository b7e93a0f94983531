"""One HTTP request through an httpx transport, as `httpx.Client` sends it, minus what `Target` turns off.

The Target follows no redirect through httpx, keeps no cookie, uses no auth, proxy or base URL,
and builds every URL itself. `httpx.Client.send` still pays for each of those layers on every
request (its cookie jar alone copies every response's headers into an `email.Message`): about a
third of the client's CPU per request. So the `httpx.Request` is built here with the headers the
Client would send, in the Client's order, and handed to the transport, which owns the keep-alive
pool; what the Client still does with an unfollowed 30x (read its Location, a protocol error when
that is no URL) and its `HTTP Request:` log record (redacted by `logs`) are kept. Parsed URLs are
kept too: a run sends thousands of requests to a few URLs. tests/harness/test_target.py compares
each request with the one httpx.Client builds.
"""

from __future__ import annotations

import logging

import httpx

__all__ = ["Wire"]

_LOG = logging.getLogger("httpx")
_CLIENT_HEADERS = (("Accept", "*/*"), ("Connection", "keep-alive"))
"""httpx.Client's own default headers, before the Target's; its Accept-Encoding and User-Agent are replaced."""
_MAX_URLS = 1024


class Wire:
    """Requests through one transport: its keep-alive pool is reused by every request."""

    def __init__(self, transport: httpx.BaseTransport, *, timeout: float, headers: dict[str, str]) -> None:
        self.transport = transport
        self._headers = [*_CLIENT_HEADERS, *headers.items()]
        self._extensions = {"timeout": httpx.Timeout(timeout).as_dict()}
        self._urls: dict[str, httpx.URL] = {}
        self._closed = False

    def url(self, text: str) -> httpx.URL:
        """`text` parsed; raises httpx.InvalidURL for a URL that cannot be sent."""
        url = self._urls.get(text)
        if url is None:
            if len(self._urls) >= _MAX_URLS:
                self._urls.clear()
            url = self._urls[text] = httpx.URL(text)
        return url

    def normal(self, text: str) -> str:
        """`text` as httpx writes it, to compare a Location with; unparsable URLs stay as they are."""
        try:
            return str(self.url(text))
        except httpx.InvalidURL:
            return text

    def open(self, method: str, url: str, body: bytes, content_type: str | None) -> httpx.Response:
        """Send the request and return the response with its body unread: the caller reads and closes it."""
        if self._closed:
            raise RuntimeError("Cannot send a request, as the client has been closed.")
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
                _redirect_url(request, response)
            except BaseException:
                response.close()
                raise
        return response

    def close(self) -> None:
        self._closed = True
        self.transport.close()


def _redirect_url(request: httpx.Request, response: httpx.Response) -> httpx.URL:
    """The Location of a 30x read as httpx.Client reads it even when it does not follow it: a Location
    that is no URL is a protocol error of the target (`Target` then judges the rest of the redirect)."""
    try:
        url = httpx.URL(response.headers["Location"])
    except httpx.InvalidURL as exc:
        raise httpx.RemoteProtocolError(f"Invalid URL in location header: {exc}.", request=request) from None
    if url.scheme and not url.host:
        url = url.copy_with(host=request.url.host)
    if url.is_relative_url:
        url = request.url.join(url)
    return url
