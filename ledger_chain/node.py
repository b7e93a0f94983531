"""The HTTP side of `csi chain serve`: the node's JSON-RPC on a loopback port, on threads.

POST with a JSON-RPC body (any path) gets the answer with HTTP 200, as from a node; `GET /health`
answers `ok`. Bodies over 1 MiB are refused (413). Only loopback addresses are served.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from csi_conformance.ledger_chain.rpc import ChainRpc

__all__ = ["LOOPBACK", "MAX_BODY", "node_server", "running_node"]

MAX_BODY = 1 << 20
LOOPBACK = ("127.0.0.1", "::1")


def node_server(rpc: ChainRpc, *, host: str = "127.0.0.1", port: int = 0) -> ThreadingHTTPServer:
    """A server answering `rpc` on `host:port` (port 0: a free one); ValueError for a host not on loopback."""
    if host not in LOOPBACK:
        raise ValueError(f"the chain's node serves loopback only (127.0.0.1 or ::1), not {host}")

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True  # the answer goes out at once, not after a delayed ACK

        def do_POST(self) -> None:
            length = int(self.headers.get("content-length") or 0)
            if length > MAX_BODY:
                self._send(413, '{"error": "request body too large"}')
                return
            self._send(200, rpc.answer(self.rfile.read(length)))

        def do_GET(self) -> None:
            self._send(200, "ok", "text/plain") if self.path.split("?")[0] == "/health" else self._send(405, "")

        def _send(self, status: int, text: str, kind: str = "application/json") -> None:
            payload = text.encode("utf-8")
            self.send_response(status)
            self.send_header("content-type", kind)
            self.send_header("content-length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    server_class = type("NodeServer", (ThreadingHTTPServer,), {"address_family": family})
    server = server_class((host, port), Handler)
    server.daemon_threads = True
    return server


@contextlib.contextmanager
def running_node(rpc: ChainRpc, *, host: str = "127.0.0.1", port: int = 0) -> Iterator[str]:
    """Serve `rpc` on a background thread; yields the URL (`http://127.0.0.1:PORT/`)."""
    server = node_server(rpc, host=host, port=port)
    thread = threading.Thread(target=server.serve_forever, name="csi-chain-node", daemon=True)
    thread.start()
    try:
        shown = f"[{host}]" if ":" in host else host
        yield f"http://{shown}:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
