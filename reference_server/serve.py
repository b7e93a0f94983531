"""Running the ASGI app under uvicorn: in the foreground (`serve`) or on a background thread
for tests and the harness (`running_server`), always on real sockets.

The access log stays off: the query string carries the api-key (§5), and an access log would
write it to disk.
"""

from __future__ import annotations

import importlib.util
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from typing import Any

import uvicorn
from csi_conformance.groundwork import interrupts

__all__ = ["base_url", "bind", "running_server", "serve"]

STARTUP_TIMEOUT = 10.0
SHUTDOWN_TIMEOUT = 5.0


def _config(app: Any, host: str, port: int) -> uvicorn.Config:
    """uvicorn settings: httptools and uvloop when installed (faster), the defaults otherwise."""
    has = importlib.util.find_spec
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        http="httptools" if has("httptools") else "auto",
        loop="uvloop" if has("uvloop") else "auto",
        access_log=False,
        log_level="warning",
        lifespan="auto",
        timeout_graceful_shutdown=int(SHUTDOWN_TIMEOUT),
    )


def bind(host: str, port: int) -> socket.socket:
    """A TCP socket bound to (host, port), not yet listening; port 0 picks a free port.

    Binding comes before anything slow (a ledger, the prover) so that a busy port fails at
    once, and so that the address announced is the one really served. OSError when it cannot.
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    return sock


def serve(app: Any, *, host: str = "127.0.0.1", port: int = 8784, sock: socket.socket | None = None) -> None:
    """Serve `app` until interrupted (Ctrl-C or SIGTERM): on `sock` (from `bind`) when given, which is
    closed on return, else on a socket bound here."""
    sock = sock if sock is not None else bind(host, port)
    with sock:
        uvicorn.Server(_config(app, host, sock.getsockname()[1])).run(sockets=[sock])


def base_url(host: str, port: int) -> str:
    """`http://HOST:PORT`, with an IPv6 host in brackets."""
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


@contextmanager
def running_server(app: Any, *, host: str = "127.0.0.1", port: int = 0) -> Iterator[str]:
    """Serve `app` on a background thread and yield its base URL (`http://127.0.0.1:PORT`).

    Port 0 picks a free port. The socket is bound here, so the port is known before uvicorn
    starts; the URL is yielded only once uvicorn is serving, and the server is stopped (and its
    thread joined) on exit, even when the body raised.
    """
    sock = bind(host, port)
    server = uvicorn.Server(_config(app, host, sock.getsockname()[1]))
    thread = threading.Thread(target=_run, args=(server, sock), name="reference-server", daemon=True)
    thread.start()
    try:
        _wait_started(server, thread)
        yield base_url(host, sock.getsockname()[1])
    finally:
        server.should_exit = True
        thread.join(SHUTDOWN_TIMEOUT + 1)
        if thread.is_alive():
            server.force_exit = True
            thread.join(SHUTDOWN_TIMEOUT)
        sock.close()


def _run(server: uvicorn.Server, sock: socket.socket) -> None:
    """uvicorn exits with SystemExit when the app fails to start; on a thread that is a log line."""
    with suppress(SystemExit):
        server.run(sockets=[sock])


def _wait_started(server: uvicorn.Server, thread: threading.Thread) -> None:
    deadline = time.monotonic() + STARTUP_TIMEOUT
    while not server.started:
        interrupts.raise_if_interrupted()  # an interrupt whose KeyboardInterrupt was lost ends the wait
        if not thread.is_alive():
            raise RuntimeError("the reference server stopped while starting (see its log)")
        if time.monotonic() > deadline:
            server.should_exit = True
            raise RuntimeError(f"the reference server did not start within {STARTUP_TIMEOUT:.0f} s")
        time.sleep(0.005)
