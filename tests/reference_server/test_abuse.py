"""The reference server under abuse, on a real socket over the default scenario with default options.

Each test names the protection it covers; without it the test fails: the body cap (413, by
Content-Length and while streaming), the JSON depth cap, the `limit` caps, answers that stay
right under 32 concurrent clients, and a body read that waits without holding anyone else up.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from csi_conformance.cases.loader import load_cases
from csi_conformance.groundwork.jsonio import MAX_DEPTH, dumps, loads
from csi_conformance.reference_server.errors import INVALID_PARAMS, PARSE_ERROR
from csi_conformance.reference_server.options import ServerOptions
from csi_conformance.reference_server.scenario import load_scenario
from csi_conformance.reference_server.serve import running_server
from csi_conformance.reference_server.wiring import app_for
from csi_conformance.schema import Contract

from .support import HANG_GUARD

CAP = ServerOptions().max_body_bytes
CONNECTIONS = 32


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    """The reference serving the spec's contract: the golden cases compared below are that contract's answers
    (under the API clients call today, an owner's accounts come in another order)."""
    with running_server(app_for(load_scenario("default"), ServerOptions(), Contract.default())) as base:
        yield base


def rpc(method: str, params: Any = None, request_id: Any = 1) -> dict[str, Any]:
    body: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
    if params is not None:
        body["params"] = params
    return body


def post(client: httpx.Client | None, url: str, body: bytes | Any) -> httpx.Response:
    content = body if isinstance(body, bytes) else dumps(body).encode()
    send = client.post if client is not None else httpx.post
    return send(url, content=content, headers={"content-type": "application/json"}, timeout=HANG_GUARD)


def connect(url: str) -> socket.socket:
    parts = urlsplit(url)
    return socket.create_connection((parts.hostname, parts.port), timeout=HANG_GUARD)


def read_status(sock: socket.socket) -> tuple[int, bytes]:
    """The status code and the whole answer (its Content-Length body), or what came before the server closed."""
    data = b""
    while True:
        head, ended, body = data.partition(b"\r\n\r\n")
        lines = head.lower().split(b"\r\n")
        declared = [line.split(b":", 1)[1] for line in lines if line.startswith(b"content-length:")]
        if ended and declared and len(body) >= int(declared[0]):
            break
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    return int(data.split(b" ", 2)[1]), data


def alive(url: str) -> None:
    answer = post(None, url, rpc("getIndexerSlot"))
    assert answer.status_code == 200 and type(loads(answer.content)["result"]) is int


# -- the body cap ---------------------------------------------------------------------------------------

def test_declared_oversize_body_is_413_before_it_is_sent(url: str) -> None:
    """Protection: `_read_body` refuses on Content-Length alone: a client that declares 1 GB gets
    413 at once, without the server waiting for (or buffering) a byte of it."""
    with connect(url) as sock:
        sock.sendall(b"POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 1073741824\r\n\r\n")
        status, answer = read_status(sock)  # not one byte of the body is ever sent
    assert status == 413
    assert b'"error"' in answer
    alive(url)


def test_streamed_oversize_body_is_413_within_the_cap(url: str) -> None:
    """Protection: `_read_body` counts bytes as they stream, so a chunked body (no Content-Length)
    is refused once past the cap (10 MiB): the server reads at most the cap plus socket buffers."""
    sent = 0
    chunk = b"0" * 65536
    frame = f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n"
    with connect(url) as sock:
        sock.sendall(b"POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     b"Transfer-Encoding: chunked\r\n\r\n")
        try:
            while sent < 8 * CAP:
                sock.sendall(frame)
                sent += len(chunk)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server answered and closed: what we measure
        status, _ = read_status(sock)
    assert status == 413
    assert CAP < sent < 2 * CAP, sent  # refused soon after the cap, not after the whole 80 MiB
    alive(url)


def test_body_at_the_cap_is_served(url: str) -> None:
    """The cap is exact: a body of exactly 10 MiB (a request padded with spaces) is still read."""
    body = dumps(rpc("getIndexerSlot")).encode()
    answer = post(None, url, body + b" " * (CAP - len(body)))
    assert answer.status_code == 200


# -- the depth cap --------------------------------------------------------------------------------------

@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 100_000])
def test_deep_json_is_a_parse_error(url: str, depth: int) -> None:
    """Protection: `groundwork.jsonio.MAX_DEPTH`, checked before parsing: a request nested deeper than
    200 levels is HTTP 400 -32700 at once, and no worker thread recurses into it."""
    params = "[" * depth + "]" * depth
    body = b'{"jsonrpc":"2.0","id":1,"method":"getMultipleNewAddressProofs","params":' + params.encode() + b"}"
    answer = post(None, url, body)
    assert answer.status_code == 400
    document = loads(answer.content)
    assert (document["id"], document["error"]["code"]) == (None, PARSE_ERROR)
    assert f"deeper than {MAX_DEPTH}" in document["error"]["message"]
    alive(url)


def test_depth_under_the_cap_reaches_validation(url: str) -> None:
    """Nesting within the cap is parsed and then refused by the params contract (-32602), not as a parse error."""
    depth = MAX_DEPTH - 5
    body = b'{"jsonrpc":"2.0","id":1,"method":"getMultipleNewAddressProofs","params":' + b"[" * depth + b"]" * depth
    answer = post(None, url, body + b"}")
    assert (answer.status_code, loads(answer.content)["error"]["code"]) == (200, INVALID_PARAMS)


# -- the `limit` caps -----------------------------------------------------------------------------------

PAGINATED = [m for m in Contract.default().methods.values() if m.paginated]


@pytest.mark.parametrize("method", PAGINATED, ids=lambda m: m.name)
def test_limit_is_capped(url: str, method) -> None:
    """Protection: `pagination.page_limit`: a `limit` over the method's maximum (observed practice, in
    the contract) is -32602, even one of 40 digits; the maximum itself is served, at most that many items."""
    template = {k: v for k, v in method.examples[0].params.items() if k != "limit"}
    most = method.observed["limit"]["max"]
    with httpx.Client() as client:
        for limit in (most + 1, 10**40, -1):
            answer = loads(post(client, url, rpc(method.name, {**template, "limit": limit})).content)
            assert answer["error"]["code"] == INVALID_PARAMS, (limit, answer)
        served = loads(post(client, url, rpc(method.name, {**template, "limit": most})).content)
    assert "error" not in served, served
    items = served["result"]["value"].get(method.pagination.items)
    assert isinstance(items, list) and len(items) <= most


# -- concurrency -----------------------------------------------------------------------------------------

def golden_requests() -> list[tuple[Any, Any, str]]:
    """(request, recorded answer, mode) of every golden case over the default scenario: all 19 methods."""
    return [(case.request, case.response, case.mode) for case in load_cases() if case.scenario == "default"]


def test_concurrent_mixed_requests_answer_as_sequential_ones(url: str) -> None:
    """Protection: the server's per-request isolation (dispatch in worker threads over a ledger that
    answers only reads): 32 clients at once, every method mixed, each answer the same as when asked
    alone and, for exact cases, as the recorded golden answer."""
    requests = golden_requests()
    assert len({request["method"] for request, _, _ in requests}) == 19
    with httpx.Client() as client:
        sequential = [post(client, url, request).content for request, _, _ in requests]

    local = threading.local()

    def ask(index: int) -> bytes:
        if not hasattr(local, "client"):
            local.client = httpx.Client()
        return post(local.client, url, requests[index][0]).content

    with ThreadPoolExecutor(CONNECTIONS) as pool:
        concurrent = list(pool.map(ask, list(range(len(requests))) * 2))
    assert concurrent == sequential * 2
    for (request, recorded, mode), answer in zip(requests, sequential, strict=True):
        if mode == "exact":
            assert loads(answer) == recorded, request["id"]


def test_a_stalled_body_does_not_hold_up_other_clients(url: str) -> None:
    """Protection: a body is read on the event loop before dispatch takes a worker thread, so 64
    clients that send half a body and stop (more than the 40 threads of the pool) hold no thread,
    and everyone else is answered while they stall (a held pool would never answer: no timing needed)."""
    stalled = []
    try:
        for _ in range(64):
            sock = connect(url)
            sock.sendall(b"POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n"
                         b"\r\n{\"jsonrpc\":\"2.0\",")
            stalled.append(sock)
        with ThreadPoolExecutor(CONNECTIONS) as pool:  # answered while every stalled body is still open
            answers = list(pool.map(lambda n: post(None, url, rpc("getIndexerSlot", request_id=n)), range(CONNECTIONS)))
    finally:
        for sock in stalled:
            sock.close()
    assert [a.status_code for a in answers] == [200] * CONNECTIONS
    assert [loads(a.content)["id"] for a in answers] == list(range(CONNECTIONS))
