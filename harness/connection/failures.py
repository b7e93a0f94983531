"""The one boundary where exceptions from the HTTP stack become `Exchange` errors.

Like httpx's `map_httpcore_exceptions`, but the result is a value, never a raise: a
hostile target must end up as a record with an error, not as a dead run. The network wire
(`curl`) raises libcurl's failures as httpx's exceptions, so this table serves both wires. The mapping is the
table `_KINDS`, first match wins (most specific first):

    httpx / httpcore ConnectTimeout              timeout      "timeout after T s while connecting"
    httpx / httpcore TimeoutException            timeout      "timeout after T s"
    httpx / httpcore ConnectError, gaierror      unreachable  "unreachable: <why>"
    httpx / httpcore RemoteProtocolError         protocol     "protocol error: <why>"
    httpx / httpcore LocalProtocolError          request      "request not sendable: <why>"
    InvalidURL, UnsupportedProtocol              request      "bad request URL: <why>"
    httpx / httpcore ReadError, WriteError       network      "connection reset: <why>" when caused
      and any other NetworkError or OSError                   by a reset or broken pipe, else
                                                              "network error: <why>"
    httpx.DecodingError, zlib.error              encoding     "undecodable body: <why>"
    anything else (an ASGI app's own crash, …)   unexpected   "unexpected failure: <type>: <why>"

Messages are redacted by the caller: httpx puts URLs, and so the key, into its messages.
"""

from __future__ import annotations

import socket
import zlib

import httpcore
import httpx
from csi_conformance.harness.connection.exchange import ErrorKind

__all__ = ["describe"]

_KINDS: tuple[tuple[tuple[type[BaseException], ...], ErrorKind, str], ...] = (
    ((httpx.ConnectTimeout, httpcore.ConnectTimeout), "timeout", "timeout after {timeout} s while connecting"),
    ((httpx.TimeoutException, httpcore.TimeoutException, TimeoutError), "timeout", "timeout after {timeout} s"),
    ((httpx.ConnectError, httpcore.ConnectError, socket.gaierror), "unreachable", "unreachable: {why}"),
    ((httpx.RemoteProtocolError, httpcore.RemoteProtocolError), "protocol", "protocol error: {why}"),
    ((httpx.LocalProtocolError, httpcore.LocalProtocolError), "request", "request not sendable: {why}"),
    ((httpx.InvalidURL, httpx.UnsupportedProtocol, httpcore.UnsupportedProtocol), "request", "bad request URL: {why}"),
    ((httpx.NetworkError, httpcore.NetworkError, OSError), "network", "network error: {why}"),
    ((httpx.DecodingError, zlib.error), "encoding", "undecodable body: {why}"),
    ((Exception,), "unexpected", "unexpected failure: {type}: {why}"),
)

_RESETS = (ConnectionResetError, ConnectionAbortedError, BrokenPipeError)


def describe(exc: Exception, *, timeout: float) -> tuple[ErrorKind, str]:
    """The kind and message for `exc`, raised while exchanging with a target under `timeout` seconds."""
    why = str(exc) or type(exc).__name__
    for classes, kind, template in _KINDS:
        if isinstance(exc, classes):
            if kind == "network" and _caused_by_reset(exc):
                template = "connection reset: {why}"
            return kind, template.format(timeout=float(timeout), why=why, type=type(exc).__name__)
    raise AssertionError("unreachable: the table ends with Exception")  # pragma: no cover


def _caused_by_reset(exc: BaseException) -> bool:
    """True when a reset or broken pipe is anywhere in the chain (both wires raise `from` the OSError)."""
    seen: BaseException | None = exc
    for _ in range(8):  # chains are short; the bound guards against a cycle
        if seen is None:
            return False
        if isinstance(seen, _RESETS):
            return True
        seen = seen.__cause__ or seen.__context__
    return False
