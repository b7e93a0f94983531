"""Real misbehaving HTTP servers on loopback, for tests of anything that talks to a target.

    with serve(by_method({"misbehave": silent()}, default=echo())) as server:
        Target(server.url).call("misbehave")      # never answered
        server.requests[0].query["api-key"]       # what the server saw

`serve(handler)` runs an asyncio server on 127.0.0.1, port 0, in a background thread, and
stops it (cancelling handlers that are still waiting) when the block ends. The server reads
one HTTP/1.1 request at a time (Content-Length bodies), records it, and gives it to the
handler, which writes whatever bytes it likes to the connection; the connection is kept
alive until the handler closes it or the peer does. A handler is an async function
`(request, writer) -> None`; the factories below make one behaviour each.

The server records what happened, so that tests can prove a protection without timing it:
each request's arrival time (`Received.at`, on the `time.monotonic` clock), and how the
handler's turn ended (`Running.outcomes()`): "answered" (the handler finished), "client-left"
(the client closed the connection while the handler was still writing or waiting: it gave up),
or "server-stopped" (the block ended first). A drip that would last minutes and ends
"client-left" after a few bytes shows the client's deadline without a clock in the test.
"""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import socket
import ssl
import struct
import threading
import time
from collections.abc import Awaitable, Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal
from urllib.parse import parse_qs, urlsplit

from csi_conformance.groundwork.jsonio import dumps, loads

from tests.harness.csi_process import HANG_GUARD

__all__ = [
    "Drip",
    "Handler",
    "Outcome",
    "Received",
    "Running",
    "Zeros",
    "answer",
    "by_method",
    "drip",
    "echo",
    "gzip_bomb",
    "rate_limited",
    "raw",
    "redirect",
    "reset_after",
    "response",
    "sequence",
    "serve",
    "silent",
]


@dataclass(frozen=True)
class Received:
    """One request as the server read it."""

    method: str
    target: str  # path and query, as sent
    headers: Mapping[str, str]  # lower-case names
    body: bytes
    at: float = field(default=0.0, compare=False)
    """`time.monotonic()` when the request had been read whole."""

    @property
    def path(self) -> str:
        return urlsplit(self.target).path

    @property
    def query(self) -> dict[str, str]:
        return {k: v[-1] for k, v in parse_qs(urlsplit(self.target).query, keep_blank_values=True).items()}

    @property
    def rpc_method(self) -> str | None:
        try:
            value = loads(self.body)
        except ValueError:
            return None
        return value.get("method") if isinstance(value, dict) else None


Handler = Callable[[Received, asyncio.StreamWriter], Awaitable[None]]
Outcome = Literal["answered", "client-left", "server-stopped"]
_POLL = 0.01  # seconds between looks for a client that went away while its handler runs


@dataclass
class Running:
    url: str  # http://127.0.0.1:<port>, no trailing slash
    requests: list[Received] = field(default_factory=list)
    _ended: list[Outcome | None] = field(default_factory=list, repr=False)
    _changed: threading.Condition = field(default_factory=threading.Condition, repr=False)

    def outcomes(self, timeout: float = HANG_GUARD) -> list[Outcome]:
        """How the handler's turn ended for each request so far, in request order, once every one has ended.

        Waits for the server to notice what the client already did (it looks every few
        milliseconds); past `timeout` that is a hang and fails the test.
        """
        with self._changed:
            if not self._changed.wait_for(lambda: None not in self._ended, timeout):
                raise AssertionError(f"handlers still running after {timeout} s: {self._ended}")
            return [outcome for outcome in self._ended if outcome is not None]

    def _arrived(self, request: Received) -> int:
        with self._changed:
            self.requests.append(request)
            self._ended.append(None)
            return len(self._ended) - 1

    def _end(self, index: int, outcome: Outcome) -> None:
        with self._changed:
            self._ended[index] = outcome
            self._changed.notify_all()


@contextlib.contextmanager
def serve(handler: Handler, *, tls: ssl.SSLContext | None = None) -> Iterator[Running]:
    """Run `handler` behind a loopback HTTP server (HTTPS with `tls`) for the duration of the block."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, name="hostile-server", daemon=True)
    thread.start()
    tasks: set[asyncio.Task[None]] = set()
    running = Running(url="")

    async def connection(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        tasks.add(task)
        try:
            while not writer.is_closing():
                request = await _read_request(reader)
                if request is None:
                    break
                index = running._arrived(request)
                outcome: Outcome = "server-stopped"
                try:
                    outcome = await _turn(handler, request, reader, writer)
                finally:
                    running._end(index, outcome)
                if outcome != "answered":
                    break
        except (ConnectionError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, asyncio.CancelledError):
            pass  # a peer that went away, or the server stopping: the task ends quietly
        finally:
            writer.close()
            tasks.discard(task)

    async def start() -> asyncio.Server:
        return await asyncio.start_server(connection, "127.0.0.1", 0, ssl=tls)

    server = asyncio.run_coroutine_threadsafe(start(), loop).result(5)
    running.url = f"{'https' if tls else 'http'}://127.0.0.1:{server.sockets[0].getsockname()[1]}"

    async def stop() -> None:
        server.close()
        for task in list(tasks):
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    try:
        yield running
    finally:
        asyncio.run_coroutine_threadsafe(stop(), loop).result(5)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(5)
        loop.close()


async def _turn(handler: Handler, request: Received, reader: asyncio.StreamReader,
                writer: asyncio.StreamWriter) -> Outcome:
    """Run `handler` on `request` until it finishes, or until the client closes the connection first."""
    answering = asyncio.ensure_future(handler(request, writer))
    leaving = asyncio.ensure_future(_client_gone(reader))
    try:
        await asyncio.wait({answering, leaving}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        leaving.cancel()
        if not answering.done():
            answering.cancel()
        await asyncio.gather(answering, leaving, return_exceptions=True)
    if answering.cancelled() or isinstance(answering.exception(), ConnectionError):
        return "client-left"
    if answering.exception() is not None:
        raise answering.exception()  # type: ignore[misc]
    return "answered"


async def _client_gone(reader: asyncio.StreamReader) -> None:
    """Return once the client has closed or reset the connection (looked at without reading from it)."""
    while not reader.at_eof() and reader.exception() is None:
        await asyncio.sleep(_POLL)


async def _read_request(reader: asyncio.StreamReader) -> Received | None:
    try:
        head = await reader.readuntil(b"\r\n\r\n")
    except asyncio.IncompleteReadError:
        return None
    lines = head.decode("latin-1").split("\r\n")
    method, target, _version = lines[0].split(" ", 2)
    headers = {}
    for line in lines[1:]:
        if line:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
    body = await reader.readexactly(int(headers.get("content-length", "0")))
    return Received(method, target, headers, body, at=time.monotonic())


def response(
    status: int,
    body: bytes = b"",
    *,
    content_type: str | None = "application/json",
    headers: Mapping[str, str] | None = None,
) -> bytes:
    """The bytes of a complete HTTP/1.1 response with a Content-Length."""
    lines = [f"HTTP/1.1 {status} Status{status}", f"Content-Length: {len(body)}"]
    if content_type is not None:
        lines.append(f"Content-Type: {content_type}")
    lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


def answer(
    status: int, body: bytes, *, content_type: str | None = "application/json", headers: Mapping[str, str] | None = None
) -> Handler:
    """The same complete answer to every request."""
    data = response(status, body, content_type=content_type, headers=headers)

    async def handle(request: Received, writer: asyncio.StreamWriter) -> None:
        writer.write(data)
        await writer.drain()

    return handle


def echo() -> Handler:
    """A JSON-RPC answer whose result repeats the request: method, params and the request target (key included)."""

    async def handle(request: Received, writer: asyncio.StreamWriter) -> None:
        try:
            call: Any = loads(request.body)
        except ValueError:
            call = None
        call = call if isinstance(call, dict) else {}
        result = {"method": call.get("method"), "params": call.get("params"), "target": request.target}
        body = dumps({"jsonrpc": "2.0", "id": call.get("id"), "result": result}).encode()
        writer.write(response(200, body, headers={"X-Request-Target": request.target}))
        await writer.drain()

    return handle


def silent() -> Handler:
    """Read the request, then never answer."""

    async def handle(request: Received, writer: asyncio.StreamWriter) -> None:
        await asyncio.Event().wait()

    return handle


class Drip:
    """Write `after` at once, then `data` one byte every `interval` seconds; counts the bytes of `data` sent."""

    def __init__(self, data: bytes, *, interval: float = 1.0, after: bytes = b"") -> None:
        self.data, self.interval, self.after = data, interval, after
        self.sent = 0

    async def __call__(self, request: Received, writer: asyncio.StreamWriter) -> None:
        writer.write(self.after)
        for i in range(len(self.data)):
            writer.write(self.data[i : i + 1])
            await writer.drain()
            self.sent += 1
            await asyncio.sleep(self.interval)


def drip(data: bytes, *, interval: float = 1.0, after: bytes = b"") -> Drip:
    """Write `after` at once, then `data` one byte every `interval` seconds."""
    return Drip(data, interval=interval, after=after)


class Zeros:
    """A body of `size` zero bytes, streamed 64 KiB at a time and never held in memory; counts what it sent."""

    def __init__(self, size: int = 1 << 30) -> None:
        self.size = size
        self.sent = 0

    async def __call__(self, request: Received, writer: asyncio.StreamWriter) -> None:
        writer.write(f"HTTP/1.1 200 OK\r\nContent-Length: {self.size}\r\n\r\n".encode())
        chunk = bytes(64 * 1024)
        while self.sent < self.size:
            writer.write(chunk)
            self.sent += len(chunk)
            await writer.drain()


def gzip_bomb(decoded_size: int) -> Handler:
    """A gzip body that inflates to `decoded_size` zero bytes, sent although the client asked for identity."""
    packed = gzip.compress(bytes(decoded_size), compresslevel=9)
    return answer(200, packed, headers={"Content-Encoding": "gzip"})


def redirect(location: str | Callable[[Received], str], *, status: int = 307) -> Handler:
    """A redirect to `location` (or to what the function makes of the request)."""

    async def handle(request: Received, writer: asyncio.StreamWriter) -> None:
        where = location(request) if callable(location) else location
        writer.write(response(status, b"", content_type=None, headers={"Location": where}))
        await writer.drain()

    return handle


def rate_limited(retry_after: str | None = None) -> Handler:
    """HTTP 429 with the §7 body `{error: string}`, with or without a Retry-After."""
    headers = {"Retry-After": retry_after} if retry_after is not None else {}
    return answer(429, b'{"error":"rate limited"}', headers=headers)


def reset_after(partial: bytes, *, pause: float = 0.2) -> Handler:
    """Write `partial` (headers and part of a body), wait, then reset the connection (RST, not FIN)."""

    async def handle(request: Received, writer: asyncio.StreamWriter) -> None:
        writer.write(partial)
        await writer.drain()
        await asyncio.sleep(pause)
        sock = writer.get_extra_info("socket")
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        writer.transport.abort()

    return handle


def raw(data: bytes) -> Handler:
    """Write `data` as it is, then close: for broken status lines, early closes and bad chunking."""

    async def handle(request: Received, writer: asyncio.StreamWriter) -> None:
        writer.write(data)
        await writer.drain()
        writer.close()

    return handle


def by_method(routes: Mapping[str, Handler], *, default: Handler) -> Handler:
    """Choose the behaviour by the JSON-RPC method in the body, so one server can misbehave and then recover."""

    async def handle(request: Received, writer: asyncio.StreamWriter) -> None:
        await routes.get(request.rpc_method or "", default)(request, writer)

    return handle


def sequence(*handlers: Handler) -> Handler:
    """The n-th request gets the n-th handler; the last one answers every request after that."""
    count = 0

    async def handle(request: Received, writer: asyncio.StreamWriter) -> None:
        nonlocal count
        chosen = handlers[min(count, len(handlers) - 1)]
        count += 1
        await chosen(request, writer)

    return handle
