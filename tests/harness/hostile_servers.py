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
"""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import socket
import struct
import threading
from collections.abc import Awaitable, Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs, urlsplit

from schema.jsonio import dumps, loads

__all__ = [
    "Handler",
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


@dataclass
class Running:
    url: str  # http://127.0.0.1:<port>, no trailing slash
    requests: list[Received] = field(default_factory=list)


@contextlib.contextmanager
def serve(handler: Handler) -> Iterator[Running]:
    """Run `handler` behind a loopback HTTP server for the duration of the block."""
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
                running.requests.append(request)
                await handler(request, writer)
        except (ConnectionError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, asyncio.CancelledError):
            pass  # a peer that went away, or the server stopping: the task ends quietly
        finally:
            writer.close()
            tasks.discard(task)

    async def start() -> asyncio.Server:
        return await asyncio.start_server(connection, "127.0.0.1", 0)

    server = asyncio.run_coroutine_threadsafe(start(), loop).result(5)
    running.url = f"http://127.0.0.1:{server.sockets[0].getsockname()[1]}"

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
    return Received(method, target, headers, body)


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


def drip(data: bytes, *, interval: float = 1.0, after: bytes = b"") -> Handler:
    """Write `after` at once, then `data` one byte every `interval` seconds."""

    async def handle(request: Received, writer: asyncio.StreamWriter) -> None:
        writer.write(after)
        for i in range(len(data)):
            writer.write(data[i : i + 1])
            await writer.drain()
            await asyncio.sleep(interval)

    return handle


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
