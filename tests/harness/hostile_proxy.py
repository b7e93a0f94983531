"""A reverse proxy on loopback that puts one hostile behaviour on one JSON-RPC method of a real server.

    with serving(None) as upstream, proxied(upstream, "getIndexerHealth", hs.silent()) as proxy:
        csi run --target proxy.url ...     # every other request reaches the reference server
        proxy.hits                          # how many requests met the behaviour
    proxy.outcomes()                    # how each of those ended: "client-left" when the client gave up

A full `csi run` through the proxy meets the behaviour on that method only, while the rest of
the run talks to the real reference server, so a test can see both the finding and the rest
of the run completing. The method is read from the request body (`Received.rpc_method`);
`method=EVERY` gives the behaviour to every request.

A behaviour is either a `hostile_servers.Handler` (it writes whatever it likes instead of the
real answer) or a `Rewrite` of the real answer (status, headers, body), such as `relabel`.
The proxy runs on `hostile_servers.serve`: an asyncio server in a background thread.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import httpx

from tests.harness import hostile_servers as hs

__all__ = ["EVERY", "Proxy", "Rewrite", "corrupt_utf8", "proxied", "relabel"]

EVERY = "*"
"""The method name that gives the behaviour to every request, whatever it asks."""

Rewrite = Callable[[int, dict[str, str], bytes], tuple[int, dict[str, str], bytes]]
"""`(status, headers, body) -> (status, headers, body)` over the real answer; lower-case header names."""

_HOP_BY_HOP = frozenset({"connection", "keep-alive", "transfer-encoding", "content-length", "content-type",
                         "date", "server"})


@dataclass
class Proxy:
    """The running proxy: its URL, what it received, and how many requests met the behaviour."""

    url: str
    method: str
    received: list[hs.Received] = field(default_factory=list)
    hits: int = 0
    upstream_answers: int = 0
    server: hs.Running | None = field(default=None, repr=False)

    def outcomes(self) -> list[hs.Outcome]:
        """How the behaviour's turn ended for each request that met it (see `hostile_servers.Running.outcomes`).

        Inside the `proxied` block it waits until the proxy has seen every such request end;
        after the block it answers at once (the block waited for that when it ended).
        """
        assert self.server is not None
        ended = self.server.outcomes()
        pairs = zip(self.server.requests[: len(ended)], ended, strict=True)
        return [outcome for request, outcome in pairs if self.method in (EVERY, request.rpc_method)]


class _Upstream:
    """Forwards a request to the real server on one keep-alive client, created in the proxy's loop."""

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url
        self.client: httpx.AsyncClient | None = None
        self.loop: asyncio.AbstractEventLoop | None = None

    async def forward(self, request: hs.Received) -> tuple[int, dict[str, str], bytes]:
        if self.client is None:
            self.loop = asyncio.get_running_loop()
            self.client = httpx.AsyncClient(base_url=self.base_url, timeout=30, trust_env=False)
        headers = {k: v for k, v in request.headers.items() if k in ("content-type", "accept-encoding", "user-agent")}
        answer = await self.client.request(request.method, request.target, content=request.body, headers=headers)
        return answer.status_code, {k.lower(): v for k, v in answer.headers.items()}, answer.content

    def close(self) -> None:
        if self.client is not None and self.loop is not None:
            asyncio.run_coroutine_threadsafe(self.client.aclose(), self.loop).result(5)


async def _relay(writer: asyncio.StreamWriter, status: int, headers: dict[str, str], body: bytes) -> None:
    extra = {k: v for k, v in headers.items() if k not in _HOP_BY_HOP}
    writer.write(hs.response(status, body, content_type=headers.get("content-type"), headers=extra))
    await writer.drain()


@contextlib.contextmanager
def proxied(upstream: str, method: str, behaviour: hs.Handler | None = None, *,
            rewrite: Rewrite | None = None) -> Iterator[Proxy]:
    """A loopback proxy to `upstream` whose answers to `method` get `behaviour` (or `rewrite`).

    A block that ends normally first waits (up to the hang guard) until the proxy has seen every
    request's turn end, so that `outcomes()` tells what the client did, not that the proxy stopped.
    """
    if (behaviour is None) == (rewrite is None):
        raise ValueError("give exactly one of behaviour and rewrite")
    forwarder = _Upstream(upstream)
    proxy = Proxy(url="", method=method)

    async def handle(request: hs.Received, writer: asyncio.StreamWriter) -> None:
        if method != EVERY and request.rpc_method != method:
            proxy.upstream_answers += 1
            await _relay(writer, *await forwarder.forward(request))
            return
        proxy.hits += 1
        if behaviour is not None:
            await behaviour(request, writer)
            return
        assert rewrite is not None
        await _relay(writer, *rewrite(*await forwarder.forward(request)))

    with hs.serve(handle) as running:
        proxy.url, proxy.received, proxy.server = running.url, running.requests, running
        try:
            yield proxy
            running.outcomes()
        finally:
            forwarder.close()


# -- rewrites of the real answer ---------------------------------------------------------------

def relabel(content_type: str) -> Rewrite:
    """The real answer under another Content-Type."""

    def rewrite(status: int, headers: dict[str, str], body: bytes) -> tuple[int, dict[str, str], bytes]:
        return status, {**headers, "content-type": content_type}, body

    return rewrite


def corrupt_utf8(status: int, headers: dict[str, str], body: bytes) -> tuple[int, dict[str, str], bytes]:
    """The real answer with a byte that is never UTF-8 (0xFF) inside its first string."""
    quote = body.find(b'"')
    return status, headers, body[: quote + 1] + b"\xff" + body[quote + 1:]
