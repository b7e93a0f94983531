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

from harness.target.exchange import NOT_JSON
from schema.errors import JsonError
from schema.jsonio import loads

__all__ = ["UnsupportedEncoding", "parse_json", "read_capped"]

_ZLIB_AUTO = 32 + zlib.MAX_WBITS  # accepts a gzip or a zlib header
_DECODABLE = {"gzip": _ZLIB_AUTO, "x-gzip": _ZLIB_AUTO, "deflate": _ZLIB_AUTO}


class UnsupportedEncoding(Exception):
    """The body uses a content-encoding this reader does not decode; the raw bytes are kept."""


def read_capped(response: httpx.Response, cap: int, deadline_at: float, into: bytearray) -> bool:
    """Append at most `cap` body bytes to `into`; True when the body is longer than that.

    `into` keeps what was read even when the transfer fails half-way, for the report. The
    deadline is checked between chunks as well, for transports that are not sockets.
    """
    encoding = response.headers.get("content-encoding", "identity").strip().lower()
    if encoding not in ("", "identity") and encoding not in _DECODABLE:
        _append_raw(response, cap, deadline_at, into)
        raise UnsupportedEncoding(f"unsupported content-encoding: {encoding}")
    decoder = zlib.decompressobj(_DECODABLE[encoding]) if encoding in _DECODABLE else None
    for chunk in response.iter_raw():
        if decoder is not None:
            chunk = decoder.decompress(chunk, cap - len(into) + 1)  # never inflate past the cap
        if _append(into, chunk, cap):
            return True
        _check_deadline(deadline_at)
    return decoder is not None and _append(into, decoder.flush(), cap)


def _append_raw(response: httpx.Response, cap: int, deadline_at: float, into: bytearray) -> None:
    for chunk in response.iter_raw():
        if _append(into, chunk, cap):
            return
        _check_deadline(deadline_at)


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
