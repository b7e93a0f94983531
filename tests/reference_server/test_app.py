"""The reference server's transport: JSON-RPC 2.0 over HTTP POST (spec §4.1, §5, §7).

Behaviours that matter on the wire run against a real uvicorn on loopback (`running_server`);
the envelope's finer rules run in-process through `httpx.ASGITransport`.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest
from csi_conformance.groundwork.jsonio import dumps, loads
from csi_conformance.reference_server.app import create_app
from csi_conformance.reference_server.errors import INVALID_REQUEST, METHOD_NOT_FOUND, PARSE_ERROR, RpcError
from csi_conformance.reference_server.options import ServerOptions
from csi_conformance.reference_server.serve import running_server

from .support import HANG_GUARD

KEY = "k3y-Zq9_secret"


class Recorder:
    """A small real dispatcher that remembers every call it answered."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, Any]] = []
        self._lock = threading.Lock()
        self._barrier: threading.Barrier | None = None

    def barrier(self, parties: int) -> threading.Barrier:
        with self._lock:
            if self._barrier is None:
                self._barrier = threading.Barrier(parties)
            return self._barrier

    def __call__(self, method: str, params: Any) -> Any:
        with self._lock:
            self.calls.append((method, params))
        if method == "getIndexerSlot":
            return 5
        if method == "echo":
            return params
        if method == "boom":
            raise RuntimeError("kaboom detail that must stay server-side")
        if method == "unserialisable":
            return {1, 2}
        if method == "rendezvous":  # answers only once `parties` calls are inside dispatch at the same time
            self.barrier(params["parties"]).wait(timeout=HANG_GUARD)
            return params["tag"]
        raise RpcError(METHOD_NOT_FOUND, f"Method not found: {method}")


def rpc(method: str, request_id: Any = 1, params: Any = None, **extra: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method, **extra}
    if params is not None:
        body["params"] = params
    return body


def post(url: str, body: Any, **kwargs: Any) -> httpx.Response:
    content = body if isinstance(body, bytes) else dumps(body).encode()
    kwargs.setdefault("timeout", HANG_GUARD)
    return httpx.post(url, content=content, headers={"content-type": "application/json"}, **kwargs)


@pytest.fixture(scope="module")
def recorder() -> Recorder:
    return Recorder()


@pytest.fixture(scope="module")
def live(recorder: Recorder) -> Iterator[str]:
    # the recorder's `rendezvous` method blocks, which is what answering in worker threads is for
    with running_server(create_app(recorder, ServerOptions(dispatch_in_threads=True))) as url:
        yield url


class InProcess:
    """POSTs to the app through `httpx.ASGITransport`, no socket; synchronous for plain tests."""

    def __init__(self, app: Any) -> None:
        self.app = app

    def post(self, path: str, content: bytes | str, headers: dict[str, str] | None = None) -> httpx.Response:
        async def go() -> httpx.Response:
            transport = httpx.ASGITransport(app=self.app)
            async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
                return await client.post(path, content=content, headers=headers)

        return asyncio.run(go())


@pytest.fixture
def local() -> tuple[InProcess, Recorder]:
    """The app in-process, with small caps to reach the limits quickly."""
    dispatch = Recorder()
    return InProcess(create_app(dispatch, ServerOptions(max_body_bytes=4096, max_batch=3))), dispatch


# -- on the wire ---------------------------------------------------------------------------


def test_both_path_forms_answer_the_same(live: str) -> None:
    body = rpc("getIndexerSlot", "same")
    root, named = post(live + "/", body), post(live + "/getIndexerSlot", body)
    assert root.status_code == named.status_code == 200
    assert root.content == named.content == b'{"jsonrpc":"2.0","id":"same","result":5}'
    assert root.headers["content-type"] == named.headers["content-type"] == "application/json"


def test_the_body_method_wins_over_the_path(live: str) -> None:
    answer = post(live + "/getCompressedAccount", rpc("getIndexerSlot"))
    assert loads(answer.content)["result"] == 5


def test_path_deeper_than_one_segment_is_404_json(live: str) -> None:
    answer = post(live + "/getIndexerSlot/extra", rpc("getIndexerSlot"))
    assert answer.status_code == 404
    assert loads(answer.content) == {"error": "not found"}


@pytest.mark.parametrize("verb", ["GET", "PUT", "DELETE", "PATCH", "OPTIONS"])
@pytest.mark.parametrize("path", ["/", "/getIndexerSlot"])
def test_non_post_is_405_json(live: str, verb: str, path: str) -> None:
    answer = httpx.request(verb, live + path, timeout=10)
    assert answer.status_code == 405
    assert answer.headers["allow"] == "POST"
    assert loads(answer.content) == {"error": "method not allowed"}


def test_api_key_refused_and_accepted(recorder: Recorder) -> None:
    app = create_app(recorder, ServerOptions(api_key=KEY))
    refusal = {"error": "missing or invalid api-key"}
    with running_server(app) as url:
        for query in ("", "?api-key=", "?api-key=wrong", f"?api-key={KEY}x", f"?api-key={KEY}&api-key={KEY}"):
            answer = post(url + "/" + query, rpc("getIndexerSlot"))
            assert (answer.status_code, loads(answer.content)) == (401, refusal), query
            assert KEY not in answer.text
        for path in ("/", "/getIndexerSlot"):
            answer = post(url + path, rpc("getIndexerSlot"), params={"api-key": KEY})
            assert (answer.status_code, loads(answer.content)["result"]) == (200, 5)


def test_oversize_body_is_413_with_and_without_content_length(recorder: Recorder) -> None:
    cap = 2048
    with running_server(create_app(recorder, ServerOptions(max_body_bytes=cap))) as url:
        declared = post(url, b" " * (cap + 1))
        assert declared.request.headers["content-length"] == str(cap + 1)
        streamed = httpx.post(url, content=iter([b" " * 1000] * 3), timeout=10)
        assert "content-length" not in streamed.request.headers
        for answer in (declared, streamed):
            assert answer.status_code == 413
            assert set(loads(answer.content)) == {"error"}
        exact = dumps(rpc("getIndexerSlot")).encode()
        exact += b" " * (cap - len(exact))
        assert post(url, exact).status_code == 200


def test_rate_limit_is_429_with_retry_after(recorder: Recorder) -> None:
    with running_server(create_app(recorder, ServerOptions(rate_limit=0.5))) as url:
        first, second = post(url, rpc("getIndexerSlot")), post(url, rpc("getIndexerSlot"))
    assert first.status_code == 200
    assert second.status_code == 429
    assert loads(second.content) == {"error": "rate limit exceeded"}
    assert second.headers["retry-after"] == "2"  # one token every 2 s, none left


@pytest.mark.parametrize(
    "body",
    [b"not json", b"{", b"", b'{"jsonrpc": "2.0", "id": 1, "method": NaN}', b"[" * 100_000, b"9" * 5000, b"\xff\xfe{}"],
    ids=["text", "truncated", "empty", "nan", "deep", "huge-integer", "not-utf8"],
)
def test_unreadable_json_is_400_parse_error(live: str, body: bytes) -> None:
    answer = post(live, body)
    assert answer.status_code == 400
    envelope = loads(answer.content)
    assert (envelope["jsonrpc"], envelope["id"], envelope["error"]["code"]) == ("2.0", None, PARSE_ERROR)


def test_batch_answers_in_order_without_notifications(live: str) -> None:
    batch = [
        rpc("getIndexerSlot", "a"),
        {"jsonrpc": "2.0", "method": "getIndexerSlot"},
        rpc("nope", "b"),
        {"jsonrpc": "1.0", "id": "c", "method": "getIndexerSlot"},
        rpc("echo", "d", {"n": 2**80}),
    ]
    answer = post(live, batch)
    assert answer.status_code == 200
    answers = loads(answer.content)
    assert [item["id"] for item in answers] == ["a", "b", "c", "d"]
    assert answers[0]["result"] == 5
    assert answers[1]["error"]["code"] == METHOD_NOT_FOUND
    assert answers[2]["error"]["code"] == INVALID_REQUEST
    assert answers[3]["result"] == {"n": 2**80}


def test_notification_gets_no_body_but_runs(live: str, recorder: Recorder) -> None:
    answer = post(live, {"jsonrpc": "2.0", "method": "echo", "params": ["note-7"]})
    assert (answer.status_code, answer.content) == (204, b"")
    assert ("echo", ["note-7"]) in recorder.calls


@pytest.mark.parametrize("request_id", ["abc", "", 7, 0, -3, None, 2**70], ids=repr)
def test_id_is_echoed_as_given(live: str, request_id: Any) -> None:
    answer = post(live, rpc("getIndexerSlot", request_id))
    assert answer.status_code == 200
    assert answer.content == dumps({"jsonrpc": "2.0", "id": request_id, "result": 5}).encode()


def test_fault_is_500_without_a_traceback(recorder: Recorder, caplog: pytest.LogCaptureFixture) -> None:
    with running_server(create_app(recorder, ServerOptions(api_key=KEY))) as url, caplog.at_level(logging.DEBUG):
        answer = post(url, rpc("boom"), params={"api-key": KEY})
    assert answer.status_code == 500
    assert answer.content == b'{"error":"Internal server error"}'
    server_side = "\n".join(
        record.getMessage() + (record.exc_text or "")
        for record in caplog.records
        if not record.name.startswith(("httpx", "httpcore"))  # the client logs its own URL
    )
    assert "kaboom" in server_side and "Traceback" in server_side
    assert KEY not in server_side


def test_concurrent_requests_are_all_answered_in_parallel(live: str) -> None:
    """Each request waits at a barrier that opens only when all `count` are inside dispatch at once:
    a server that dispatched them one at a time would never answer the first (the barrier breaks after
    HANG_GUARD and the answers are 500s). No timing is measured."""
    count = 32

    def call(n: int) -> tuple[int, Any]:
        answer = post(live, rpc("rendezvous", n, {"parties": count, "tag": f"t{n}"}), timeout=2 * HANG_GUARD)
        return answer.status_code, loads(answer.content)

    with ThreadPoolExecutor(count) as pool:
        answers = list(pool.map(call, range(count)))
    assert answers == [(200, {"jsonrpc": "2.0", "id": n, "result": f"t{n}"}) for n in range(count)]


# -- in process ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "echoed"),
    [
        (5, None),
        ("text", None),
        (None, None),
        ({"id": "k", "method": "getIndexerSlot"}, "k"),
        ({"jsonrpc": "1.0", "id": "k", "method": "getIndexerSlot"}, "k"),
        ({"jsonrpc": 2.0, "id": 3, "method": "getIndexerSlot"}, 3),
        ({"jsonrpc": "2.0", "id": "k"}, "k"),
        ({"jsonrpc": "2.0", "id": "k", "method": 19}, "k"),
        ({"jsonrpc": "2.0", "id": {"a": 1}, "method": "getIndexerSlot"}, None),
        ({"jsonrpc": "2.0", "id": [1], "method": "getIndexerSlot"}, None),
        ({"jsonrpc": "2.0", "id": 1.5, "method": "getIndexerSlot"}, None),
        ({"jsonrpc": "2.0", "id": 1.0, "method": "getIndexerSlot"}, None),
        ({"jsonrpc": "2.0", "id": True, "method": "getIndexerSlot"}, None),
        ({"jsonrpc": "2.0", "id": "k", "method": "echo", "params": 5}, "k"),
        ({"jsonrpc": "2.0", "id": "k", "method": "echo", "params": "x"}, "k"),
        ({"jsonrpc": "2.0", "method": "echo", "params": True}, None),
    ],
)
def test_invalid_request_is_32600_with_http_200(local: tuple[InProcess, Recorder], body: Any, echoed: Any) -> None:
    client, dispatch = local
    answer = client.post("/", content=dumps(body))
    assert answer.status_code == 200
    envelope = loads(answer.content)
    assert (envelope["id"], envelope["error"]["code"]) == (echoed, INVALID_REQUEST)
    assert dispatch.calls == []


def test_rpc_error_is_an_error_envelope_with_http_200(local: tuple[InProcess, Recorder]) -> None:
    client, _ = local
    answer = client.post("/", content=dumps(rpc("getNothing", "q")))
    assert answer.status_code == 200
    assert loads(answer.content) == {
        "jsonrpc": "2.0",
        "id": "q",
        "error": {"code": METHOD_NOT_FOUND, "message": "Method not found: getNothing"},
    }


def test_params_reach_dispatch_as_given_and_absent_as_none(local: tuple[InProcess, Recorder]) -> None:
    client, dispatch = local
    for params in ({"a": [1, {"b": None}]}, ["x", 2**64]):
        assert loads(client.post("/", content=dumps(rpc("echo", 1, params))).content)["result"] == params
    assert loads(client.post("/", content=dumps(rpc("echo"))).content)["result"] is None
    assert dispatch.calls[-1] == ("echo", None)


def test_batch_limits(local: tuple[InProcess, Recorder]) -> None:
    client, dispatch = local
    empty = loads(client.post("/", content=b"[]").content)
    assert (empty["id"], empty["error"]["code"]) == (None, INVALID_REQUEST)
    over = loads(client.post("/", content=dumps([rpc("getIndexerSlot", n) for n in range(4)])).content)
    assert over["error"]["code"] == INVALID_REQUEST and dispatch.calls == []
    full = loads(client.post("/", content=dumps([rpc("getIndexerSlot", n) for n in range(3)])).content)
    assert [item["result"] for item in full] == [5, 5, 5]


def test_batch_of_notifications_has_no_body(local: tuple[InProcess, Recorder]) -> None:
    client, dispatch = local
    note = {"jsonrpc": "2.0", "method": "echo", "params": [1]}
    answer = client.post("/", content=dumps([note, note]))
    assert (answer.status_code, answer.content) == (204, b"")
    assert len(dispatch.calls) == 2


@pytest.mark.parametrize(
    "body",
    [rpc("unserialisable"), [rpc("getIndexerSlot"), rpc("boom")], {"jsonrpc": "2.0", "method": "boom"}],
    ids=["result-not-json", "fault-in-batch", "fault-in-notification"],
)
def test_any_fault_is_a_bare_500(local: tuple[InProcess, Recorder], body: Any) -> None:
    client, _ = local
    answer = client.post("/", content=dumps(body))
    assert (answer.status_code, answer.content) == (500, b'{"error":"Internal server error"}')


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", None])
def test_any_content_type_is_read_as_json(local: tuple[InProcess, Recorder], content_type: str | None) -> None:
    client, _ = local
    headers = {"content-type": content_type} if content_type else {}
    answer = client.post("/", content=dumps(rpc("getIndexerSlot")), headers=headers)
    assert loads(answer.content)["result"] == 5


def test_error_messages_quoting_input_are_short(local: tuple[InProcess, Recorder]) -> None:
    client, _ = local
    answer = client.post("/", content=dumps({"jsonrpc": "x" * 3000, "id": 1, "method": "m"}))
    assert len(loads(answer.content)["error"]["message"]) <= 200


async def _raw_post(app: Any, headers: list[tuple[bytes, bytes]], chunks: list[bytes]) -> tuple[int, bytes, int]:
    """Drive the ASGI app by hand: the only way to send a Content-Length that lies."""
    pending = [{"type": "http.request", "body": c, "more_body": i < len(chunks) - 1} for i, c in enumerate(chunks)]
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return pending.pop(0) if pending else {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST", "scheme": "http",
             "path": "/", "raw_path": b"/", "query_string": b"", "root_path": "", "headers": headers,
             "client": ("127.0.0.1", 1), "server": ("127.0.0.1", 80)}  # fmt: skip
    await app(scope, receive, send)
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return sent[0]["status"], body, len(pending)


def test_a_lying_content_length_cannot_pass_the_cap() -> None:
    app = create_app(Recorder(), ServerOptions(max_body_bytes=1000))
    status, body, unread = asyncio.run(_raw_post(app, [(b"content-length", b"10")], [b" " * 400] * 5))
    assert (status, set(loads(body))) == (413, {"error"})
    assert unread == 2  # stopped reading once past the cap
    status, _, unread = asyncio.run(_raw_post(app, [(b"content-length", b"1001")], [b"{}"]))
    assert (status, unread) == (413, 1)  # refused on the header alone


def test_requests_are_answered_on_the_loop_unless_a_method_can_block() -> None:
    """Without a prover the methods never block, so the thread hand-off per request is skipped
    (about 1.6 times faster); with `--prover-url` a request can wait on the prover and gets a thread."""
    import threading

    seen: list[str] = []

    def where(method: str, params: Any) -> Any:
        seen.append(threading.current_thread().name)
        return 1

    for options, in_thread in ((ServerOptions(), False), (ServerOptions(prover_url="http://127.0.0.1:9"), True),
                               (ServerOptions(dispatch_in_threads=True), True)):
        assert options.threads is in_thread
        with running_server(create_app(where, options)) as url:
            assert post(url, rpc("getIndexerSlot", 1)).status_code == 200
        assert (seen.pop() == "AnyIO worker thread") is in_thread  # else the server's own loop thread
