"""The rules a `Target` holds a target to, written once for both of its wires (libcurl and httpx).

A wire only sends a request and reads its answer with its library; what it may accept is decided here:

- redirects: the Location of every 30x below is read, followed or not, and one that is no URL is a
  protocol error of the target. Only a same-origin 307 or 308 is followed (same method and body, the
  api-key kept), up to `max_redirects` hops; a hop back to a URL already visited is a loop. A 301,
  302 or 303 is recorded as it is: those codes allow a switch to GET, which would drop the JSON-RPC
  body. A redirect to another origin (scheme, host, port) is refused, so the key is never sent there;
- the response head: at most `MAX_HEADER_FIELDS` fields of at most `MAX_HEAD_BYTES` (names and values,
  as received), below what either library refuses on its own, so that the rule, not the library, decides;
- the body: at most `max_response_bytes` bytes (decoded), reported as `over_cap`;
- time: one total deadline of `timeout` seconds per HTTP request (a redirect hop or a 429 retry is a
  new request), connect and body included.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from urllib.parse import quote

import httpx
from csi_conformance.harness.core.errors import UsageError

__all__ = [
    "DEFAULT_PORTS",
    "FOLLOWED_REDIRECTS",
    "MAX_HEADER_FIELDS",
    "MAX_HEAD_BYTES",
    "REDIRECT_STATUSES",
    "Policy",
    "RedirectRefused",
    "RedirectTrail",
]

REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
"""Answers whose Location is read (as httpx.Client reads it, followed or not)."""
FOLLOWED_REDIRECTS = frozenset({307, 308})
"""The redirects followed, same origin only: the codes that keep the method and the body."""
DEFAULT_PORTS = {"http": 80, "https": 443}
MAX_HEAD_BYTES = 64 * 1024
"""Bytes of header names and values one response head may hold (httpcore refuses a head past 100 KiB)."""
MAX_HEADER_FIELDS = 1000
"""Header fields one response head may hold (libcurl refuses more than 5000)."""


class RedirectRefused(Exception):
    """A redirect the policy does not follow nor record as a plain answer (the message says why)."""


@dataclass(frozen=True)
class Policy:
    """The bounds of one `Target`: its deadline per request, its body cap, its redirect hops."""

    timeout: float = 10.0
    max_response_bytes: int = 8 * 1024 * 1024
    max_redirects: int = 5

    def __post_init__(self) -> None:
        _require(self.timeout > 0, "timeout must be positive")
        _require(self.max_response_bytes > 0, "max_response_bytes must be positive")
        _require(self.max_redirects >= 0, "max_redirects must not be negative")

    def deadline_at(self) -> float:
        """When a request sent now must be over (`time.monotonic` clock)."""
        return time.monotonic() + self.timeout

    @property
    def over_cap(self) -> str:
        """How a body longer than the cap is reported (error kind "too-large")."""
        return f"response over {self.max_response_bytes} bytes"

    def check_head(self, url: httpx.URL, status: int, headers: Mapping[str, str], fields: int, size: int) -> None:
        """Raise httpx.RemoteProtocolError for a head no target may send: over the head caps, or a
        redirect whose Location is no URL. `headers` has lower-case names; `fields` counts the head's
        fields and `size` the bytes of their names and values. Called once the head is in, before
        anything of it is recorded, by each wire."""
        if fields > MAX_HEADER_FIELDS:
            raise httpx.RemoteProtocolError(f"response head over {MAX_HEADER_FIELDS} header fields")
        if size > MAX_HEAD_BYTES:
            raise httpx.RemoteProtocolError(f"response head over {MAX_HEAD_BYTES} bytes")
        location = headers.get("location")
        if status in REDIRECT_STATUSES and location is not None:
            redirect_url(url, location)

    def redirects(self, url: str, key: str | None, redact: Callable[[str], str]) -> RedirectTrail:
        """The trail of one request's redirects, starting at `url` (as the wire writes it)."""
        return RedirectTrail(self.max_redirects, url, key, redact)


class RedirectTrail:
    """Where the redirects of one request lead: `follow` says, hop by hop, whether and where to go on."""

    def __init__(self, max_redirects: int, url: str, key: str | None, redact: Callable[[str], str]) -> None:
        self._max = max_redirects
        self._url = url
        self._key = key
        self._redact = redact
        self._visited = {url}
        self.hops: list[str] = []
        """Redacted URLs of the redirects followed, in order."""

    def follow(self, status: int | None, location: str | None) -> str | None:
        """The URL to ask next after an answer with `status` and `location` (as received), or None when the
        answer is recorded as it is. Raises RedirectRefused for another origin, a loop or one hop too many."""
        if status not in REDIRECT_STATUSES or location is None:
            return None
        try:
            here = httpx.URL(self._url)
            there = here.join(location.strip())
        except (httpx.InvalidURL, ValueError, TypeError):
            raise RedirectRefused(f"redirect to an unusable location: {self._redact(location)}") from None
        if _origin(there) != _origin(here):
            raise RedirectRefused(f"redirect to another host refused: {self._redact(location)}")
        if status not in FOLLOWED_REDIRECTS:
            return None
        url = _with_key(there, self._key)
        if url in self._visited:
            raise RedirectRefused(f"redirect loop: back to {self._redact(url)}")
        if len(self.hops) >= self._max:
            raise RedirectRefused(f"too many redirects: more than {self._max}")
        self._visited.add(url)
        self.hops.append(self._redact(url))
        self._url = url
        return url


def redirect_url(url: httpx.URL, location: str) -> httpx.URL:
    """The Location of a 30x read as httpx.Client reads it even when it does not follow it: a Location
    that is no URL is a protocol error of the target (`RedirectTrail` then judges the rest of the redirect)."""
    try:
        there = httpx.URL(location)
    except httpx.InvalidURL as exc:
        raise httpx.RemoteProtocolError(f"Invalid URL in location header: {exc}.") from None
    if there.scheme and not there.host:
        there = there.copy_with(host=url.host)
    if there.is_relative_url:
        there = url.join(there)
    return there


def _with_key(there: httpx.URL, key: str | None) -> str:
    """A same-origin redirect's target, with the api-key added when the location dropped it."""
    if not key or "api-key" in there.params:
        return str(there)
    extra = f"api-key={quote(key, safe='')}"
    query = there.query.decode("ascii")
    return str(there.copy_with(query=(f"{query}&{extra}" if query else extra).encode("ascii")))


def _origin(url: httpx.URL) -> tuple[str, str, int | None]:
    return url.scheme, url.host.lower(), url.port or DEFAULT_PORTS.get(url.scheme)


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise UsageError(message)
