"""Forwarding one request to an upstream indexer, unchanged, and reading its answer whole, within bounds.

The body goes byte for byte, to the upstream's path prefix followed by the path the app asked, with the app's
query as it is (its `api-key` too) and the members of the upstream URL's own query the app's does not name.
The answer is read whole up to a size cap and a deadline: whatever the upstream does (refuses, hangs, breaks
HTTP, floods), the result is a `Passage` that says so, never an exception. Nothing here redacts: the caller
redacts a passage before it is kept or judged.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from urllib.parse import parse_qsl

import httpx
from csi_conformance.harness.connection import ErrorKind
from csi_conformance.harness.connection.policy import Policy
from csi_conformance.harness.core.errors import UsageError
from csi_conformance.harness.proxy.passage import Passage

__all__ = ["HOP_BY_HOP", "Upstream"]

HOP_BY_HOP = frozenset({"connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "te", "trailer",
                        "transfer-encoding", "upgrade", "host", "content-length", "accept-encoding",
                        "content-encoding"})
"""Headers of one hop, not of the exchange: never forwarded either way (the body is re-framed, decoded)."""


class Upstream:
    """An indexer requests are forwarded to."""

    def __init__(self, url: str, *, timeout: float = Policy.timeout,
                 max_response_bytes: int = Policy.max_response_bytes) -> None:
        parsed = httpx.URL(url)
        if parsed.scheme not in ("http", "https") or not parsed.host:
            raise UsageError(f"not a usable upstream URL (http:// or https:// with a host): {parsed.scheme}://…")
        self._base = str(parsed.copy_with(query=None, fragment=None)).rstrip("/")
        self._query = parse_qsl(parsed.query.decode("ascii"), keep_blank_values=True)
        self.key = dict(self._query).get("api-key") or None
        """The key the upstream URL carries, if any (never printed: the redactor is given it)."""
        self._cap = max_response_bytes
        self._client = httpx.AsyncClient(timeout=httpx.Timeout(timeout), follow_redirects=False, trust_env=False,
                                         limits=httpx.Limits(max_connections=64, max_keepalive_connections=16))
        self._timeout = timeout

    def url(self, path: str, query: str) -> str:
        """Where a request the app sent to `path?query` goes."""
        asked = {name for name, _ in parse_qsl(query, keep_blank_values=True)}
        added = "&".join(f"{httpx.QueryParams({n: v})}" for n, v in self._query if n not in asked)
        joined = "&".join(part for part in (query, added) if part)
        return f"{self._base}{path}" + (f"?{joined}" if joined else "")

    async def forward(self, method: str, path: str, query: str, body: bytes,
                      headers: Mapping[str, str]) -> Passage:
        """The upstream's answer to one request, as a passage (unredacted)."""
        sent_headers = {name: value for name, value in headers.items() if name.lower() not in HOP_BY_HOP}
        sent_headers["accept-encoding"] = "gzip, identity"
        shown = path + (f"?{query}" if query else "")
        content_type = headers.get("content-type")
        started = time.monotonic()
        status, answer_headers, received = None, {}, bytearray()
        try:
            async with self._client.stream(method, self.url(path, query), content=body,
                                           headers=sent_headers) as response:
                status = response.status_code
                answer_headers = _headers(response.headers)
                async for chunk in response.aiter_bytes():
                    received += chunk
                    if len(received) > self._cap:
                        return self._failed(shown, body, status, answer_headers, received, started, "too-large",
                                            f"the answer went past {self._cap} bytes", method, content_type)
        except Exception as exc:  # the boundary: whatever the upstream did becomes the passage's error
            kind, message = _described(exc, self._timeout)
            return self._failed(shown, body, status, answer_headers, received, started, kind, message, method,
                                content_type)
        return Passage(path=shown, sent=body, status=status, headers=answer_headers, body=bytes(received),
                       elapsed=time.monotonic() - started, http_method=method, content_type=content_type)

    def _failed(self, shown: str, body: bytes, status: int | None, headers: dict, received: bytearray,
                started: float, kind: ErrorKind, message: str, method: str, content_type: str | None) -> Passage:
        return Passage(path=shown, sent=body, status=status, headers=headers, body=bytes(received[:self._cap]),
                       error=message, error_kind=kind, elapsed=time.monotonic() - started, http_method=method,
                       content_type=content_type)

    async def close(self) -> None:
        await self._client.aclose()


def _headers(headers: httpx.Headers) -> dict[str, str]:
    """Lower-case names, repeated headers joined with ", " (as the kit's client reads them)."""
    joined: dict[str, str] = {}
    for name, value in headers.multi_items():
        name = name.lower()
        joined[name] = f"{joined[name]}, {value}" if name in joined else value
    return joined


def _described(exc: Exception, timeout: float) -> tuple[ErrorKind, str]:
    """A transport failure's kind and a line saying it."""
    if isinstance(exc, httpx.TimeoutException):
        return "timeout", f"no whole answer within {timeout:g} s"
    if isinstance(exc, httpx.ConnectError):
        return "unreachable", f"cannot connect: {exc}"
    if isinstance(exc, httpx.RemoteProtocolError):
        return "protocol", f"broken HTTP: {exc}"
    if isinstance(exc, httpx.DecodingError):
        return "encoding", f"the answer cannot be decoded: {exc}"
    if isinstance(exc, httpx.TransportError):
        return "network", f"connection failed: {exc}"
    return "unexpected", f"{type(exc).__name__}: {exc}"
