"""Read a response body within a byte cap and a deadline, and parse it as exact JSON.

The body is streamed: reading stops one byte past the cap, so a 1 GB answer costs at most the
cap in memory. The harness asks for `Accept-Encoding: identity`; a target that compresses
anyway is decoded here (gzip and deflate only) with the cap applied to the decoded bytes, so a
compression bomb is bounded too. httpx's own decoders would inflate a whole chunk at once.
"""

from __future__ import annotations

import time
import zlib
from typing import Any

import httpx
from csi_conformance.groundwork.errors import JsonError
from csi_conformance.groundwork.jsonio import loads
from csi_conformance.harness.connection.exchange import NOT_JSON

__all__ = ["CappedBody", "UnsupportedEncoding", "parse_json", "read_capped"]

_ZLIB_AUTO = 32 + zlib.MAX_WBITS  # accepts a gzip or a zlib header
_DECODABLE = {"gzip": _ZLIB_AUTO, "x-gzip": _ZLIB_AUTO, "deflate": _ZLIB_AUTO}


class UnsupportedEncoding(Exception):
    """The body uses a content-encoding this reader does not decode; the raw bytes are kept."""


class CappedBody:
    """Body chunks into a bytearray, decoded by their content-encoding, never past `cap` bytes.

    Fed chunk by chunk by whichever wire reads the response; `into` keeps what was read even when
    the transfer fails half-way, for the report. A body in an encoding not decoded here is kept
    raw (capped too), and `finish` raises `UnsupportedEncoding` for it.
    """

    def __init__(self, content_encoding: str | None, cap: int, into: bytearray) -> None:
        encoding = (content_encoding or "identity").strip().lower()
        self.unsupported = encoding if encoding not in ("", "identity") and encoding not in _DECODABLE else None
        self._decoder = zlib.decompressobj(_DECODABLE[encoding]) if encoding in _DECODABLE else None
        self._cap = cap
        self._into = into

    def feed(self, chunk: bytes) -> bool:
        """Take one chunk; True when the body went over the cap (stop reading then)."""
        if self._decoder is not None:
            chunk = self._decoder.decompress(chunk, self._cap - len(self._into) + 1)  # never inflate past the cap
        over = _append(self._into, chunk, self._cap)
        if over and self.unsupported:
            raise UnsupportedEncoding(f"unsupported content-encoding: {self.unsupported}")
        return over

    def finish(self) -> bool:
        """The body ended: True when what the decoder still held went over the cap."""
        if self.unsupported:
            raise UnsupportedEncoding(f"unsupported content-encoding: {self.unsupported}")
        return self._decoder is not None and _append(self._into, self._decoder.flush(), self._cap)


def read_capped(response: httpx.Response, cap: int, deadline_at: float, into: bytearray) -> bool:
    """Append at most `cap` body bytes of an httpx response to `into`; True when the body is longer.

    The deadline is checked between chunks as well, for transports that are not sockets.
    """
    body = CappedBody(response.headers.get("content-encoding"), cap, into)
    for chunk in response.iter_raw():
        if body.feed(chunk):
            return True
        _check_deadline(deadline_at)
    return body.finish()


def _append(into: bytearray, chunk: bytes, cap: int) -> bool:
    """Append within the cap; True when `chunk` did not fit."""
    room = cap - len(into)
    into += chunk[:room]
    return len(chunk) > room


def _check_deadline(deadline_at: float) -> None:
    if time.monotonic() >= deadline_at:
        raise httpx.ReadTimeout("total deadline passed while reading the body")


def parse_json(body: bytes, content_type: str | None) -> tuple[Any, str | None]:
    """`(value, None)` for a JSON body, `(NOT_JSON, reason)` otherwise; never raises.

    JSON on the wire is UTF-8 (RFC 8259 §8.1), so the bytes are decoded strictly first: a
    UTF-16 body or a byte-order mark is reported, not silently accepted.
    """
    if not body:
        return NOT_JSON, "empty body"
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        return NOT_JSON, f"not UTF-8: {exc.reason} at byte {exc.start}"
    try:
        return loads(text), None
    except JsonError as exc:
        if text.lstrip()[:1] == "<":
            return NOT_JSON, f"HTML or XML, not JSON (content-type {content_type or 'absent'}): {exc}"
        return NOT_JSON, str(exc)
