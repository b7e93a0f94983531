"""An httpx transport whose every socket operation ends at one total deadline.

httpx's timeouts are per operation: a read timeout of 10 s lets a server that drips one byte
a second hold a request forever, in the status line as well as in the body. Here the deadline
of the request in flight (set with `deadline()`) clips the timeout of each connect, TLS
handshake, read and write, and an operation that starts after it raises httpcore's timeout at
once. The rest is httpx's own `HTTPTransport.handle_request`, without its exception mapping:
httpcore's exceptions reach `failures.describe`, the single mapping boundary.
"""

from __future__ import annotations

import ssl
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

import httpcore
import httpx

__all__ = ["DeadlineTransport", "deadline"]

_DEADLINE: ContextVar[float | None] = ContextVar("csi_target_deadline", default=None)


@contextmanager
def deadline(seconds: float) -> Iterator[float]:
    """Every socket operation of a `DeadlineTransport` inside the block ends `seconds` from now."""
    at = time.monotonic() + seconds
    token = _DEADLINE.set(at)
    try:
        yield at
    finally:
        _DEADLINE.reset(token)


def _clip(timeout: float | None, expired: type[httpcore.TimeoutException]) -> float | None:
    at = _DEADLINE.get()
    if at is None:
        return timeout
    left = at - time.monotonic()
    if left <= 0:
        raise expired("total deadline passed")
    return left if timeout is None else min(timeout, left)


class _Stream(httpcore.NetworkStream):
    def __init__(self, inner: httpcore.NetworkStream) -> None:
        self._inner = inner

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self._inner.read(max_bytes, _clip(timeout, httpcore.ReadTimeout))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._inner.write(buffer, _clip(timeout, httpcore.WriteTimeout))

    def close(self) -> None:
        self._inner.close()

    def start_tls(
        self, ssl_context: ssl.SSLContext, server_hostname: str | None = None, timeout: float | None = None
    ) -> httpcore.NetworkStream:
        return _Stream(self._inner.start_tls(ssl_context, server_hostname, _clip(timeout, httpcore.ConnectTimeout)))

    def get_extra_info(self, info: str) -> Any:
        return self._inner.get_extra_info(info)


class _Backend(httpcore.NetworkBackend):
    def __init__(self) -> None:
        self._inner = httpcore.SyncBackend()

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.NetworkStream:
        clipped = _clip(timeout, httpcore.ConnectTimeout)
        return _Stream(self._inner.connect_tcp(host, port, clipped, local_address, socket_options))

    def connect_unix_socket(
        self, path: str, timeout: float | None = None, socket_options: Iterable[Any] | None = None
    ) -> httpcore.NetworkStream:
        clipped = _clip(timeout, httpcore.ConnectTimeout)
        return _Stream(self._inner.connect_unix_socket(path, clipped, socket_options))

    def sleep(self, seconds: float) -> None:
        self._inner.sleep(seconds)


class _ResponseStream(httpx.SyncByteStream):
    def __init__(self, stream: Iterable[bytes]) -> None:
        self._stream = stream

    def __iter__(self) -> Iterator[bytes]:
        yield from self._stream

    def close(self) -> None:
        close = getattr(self._stream, "close", None)
        if close is not None:
            close()


class DeadlineTransport(httpx.BaseTransport):
    """HTTP/1.1 with keep-alive and TLS verification, every socket operation bounded by `deadline()`."""

    def __init__(self, *, verify: ssl.SSLContext | bool = True) -> None:
        self._pool = httpcore.ConnectionPool(
            ssl_context=httpx.create_ssl_context(verify=verify, trust_env=False),
            max_connections=10,
            max_keepalive_connections=10,
            keepalive_expiry=5.0,
            network_backend=_Backend(),
        )

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        assert isinstance(request.stream, httpx.SyncByteStream)
        core_request = httpcore.Request(
            method=request.method,
            url=httpcore.URL(
                scheme=request.url.raw_scheme,
                host=request.url.raw_host,
                port=request.url.port,
                target=request.url.raw_path,
            ),
            headers=request.headers.raw,
            content=request.stream,
            extensions=request.extensions,
        )
        response = self._pool.handle_request(core_request)
        assert isinstance(response.stream, Iterable)
        return httpx.Response(
            status_code=response.status,
            headers=response.headers,
            stream=_ResponseStream(response.stream),
            extensions=response.extensions,
        )

    def close(self) -> None:
        self._pool.close()
