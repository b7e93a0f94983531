"""The reference server's transport: a Starlette ASGI app that speaks JSON-RPC 2.0 over HTTP POST.

The app knows nothing of the ledger: it takes a `Dispatch` function, `(method, params) -> result`
that raises `RpcError` for an operation-level failure. Order of the gates on every request:
path (404) -> HTTP method (405) -> api-key (401) -> rate limit (429) -> body size (413)
-> JSON (400, -32700) -> envelope (-32600) -> dispatch. Every refusal is JSON, and a 5xx only
ever comes from a real fault (dispatch raising something other than `RpcError`).
"""

from __future__ import annotations

import hmac
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl

from csi_conformance.groundwork.errors import JsonError
from csi_conformance.groundwork.jsonio import dumps, loads
from csi_conformance.reference_server.errors import INVALID_REQUEST, PARSE_ERROR, RpcError
from csi_conformance.reference_server.options import ServerOptions
from csi_conformance.reference_server.ratelimit import TokenBucket
from csi_conformance.schema import Contract
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

__all__ = ["Dispatch", "JsonRpc", "Reply", "create_app"]

Dispatch = Callable[[str, Any], Any]
"""`(method name, params or None) -> result`; raises `RpcError` for an operation-level failure."""

logger = logging.getLogger(__name__)

JSON = "application/json"
INTERNAL_ERROR = "Internal server error"
MAX_MESSAGE_CHARS = 200


@dataclass(frozen=True)
class Reply:
    """What the transport sends back: a status, a body (None for no body) and extra headers."""

    status: int
    body: bytes | None
    headers: dict[str, str] = field(default_factory=dict)


def _error_reply(status: int, message: str, headers: dict[str, str] | None = None) -> Reply:
    """A bare `{error: string}` body, the shape §7 gives for 429 and 500 (7-R2, 7-R3)."""
    return Reply(status, dumps({"error": message}).encode(), headers or {})


class _Fault(Exception):
    """A dispatch or serialisation failure that is not an `RpcError`: the answer is HTTP 500."""


class JsonRpc:
    """JSON-RPC 2.0 over one request body, synchronous so that it can run in a worker thread."""

    def __init__(self, dispatch: Dispatch, options: ServerOptions, contract: Contract) -> None:
        self.dispatch = dispatch
        self.options = options
        # The request-id ambiguity is resolved to its observed reading: string, integer or null.
        readings = {"request-id": [contract.ambiguity("request-id").observed]}
        self._request = contract.validator("Request", readings)
        self._request_id = contract.validator("ambiguity.request-id", readings)

    def handle(self, body: bytes) -> Reply:
        """Answer one HTTP body: a single request, a batch, or something unreadable.

        No body at all (a notification, or a batch of them) is HTTP 204: observed practice says
        only "no response body", and 204 says so on the wire. A fault anywhere, even in one
        element of a batch or in a notification, makes the whole answer HTTP 500 `{error}` (7-R3)
        with the traceback logged here, never sent.
        """
        try:
            payload = loads(body)
        except JsonError as exc:
            return self._parse_error(exc)
        try:
            if isinstance(payload, list):
                return self._batch(payload)
            answer = self._answer(payload)
        except _Fault as fault:
            logger.exception("internal error while answering %s", fault)
            return _error_reply(500, INTERNAL_ERROR)
        return Reply(204, None) if answer is None else Reply(200, answer.encode())

    def _parse_error(self, exc: JsonError) -> Reply:
        """Observed practice (the spec is silent): HTTP 400 with a -32700 error and `id: null`."""
        error = RpcError(PARSE_ERROR, _clip(f"Parse error: {exc}"))
        return Reply(400, self._envelope(None, error=error).encode())

    def _batch(self, items: list[Any]) -> Reply:
        """Each element answered in order, notifications left out (JSON-RPC 2.0; observed practice).

        An empty batch or one over `options.max_batch` is a single -32600 error with HTTP 200;
        a batch of only notifications has no body (HTTP 204).
        """
        if not items:
            return self._invalid("Invalid Request: empty batch")
        if len(items) > self.options.max_batch:
            return self._invalid(f"Invalid Request: batch of {len(items)} exceeds {self.options.max_batch}")
        answers = [answer for answer in map(self._answer, items) if answer is not None]
        if not answers:
            return Reply(204, None)
        return Reply(200, ("[" + ",".join(answers) + "]").encode())

    def _invalid(self, message: str) -> Reply:
        """A batch-level -32600 with `id: null`, HTTP 200 like every JSON-RPC error (observed)."""
        return Reply(200, self._envelope(None, error=RpcError(INVALID_REQUEST, _clip(message))).encode())

    def _answer(self, item: Any) -> str | None:
        """One request object's response text, or None for a notification (a request without `id`).

        An invalid request is answered even without `id` (JSON-RPC 2.0), echoing the id when it
        is itself well formed. The id may be a string, an integer or null (the observed reading of
        ambiguity request-id) and is echoed exactly. Notifications still run; their result or
        error is dropped. An `RpcError` is an error envelope with HTTP 200 (observed practice).
        """
        if not isinstance(item, dict):
            return self._envelope(None, error=RpcError(INVALID_REQUEST, "Invalid Request: not an object"))
        request_id = item.get("id")
        if not self._request_id.is_valid(request_id):
            request_id = None
        # A notification is checked as the request it would be with `id: null`.
        violations = self._request.violations({"id": None, **item})
        if violations:
            error = RpcError(INVALID_REQUEST, _clip(f"Invalid Request: {violations[0]}"))
            return self._envelope(request_id, error=error)
        try:
            result = self.dispatch(item["method"], item.get("params"))
        except RpcError as error:
            return None if "id" not in item else self._envelope(request_id, error=error)
        except Exception as exc:
            raise _Fault(f"method {_clip(item['method'])!r}") from exc
        return None if "id" not in item else self._envelope(request_id, result=result)

    @staticmethod
    def _envelope(request_id: Any, *, result: Any = None, error: RpcError | None = None) -> str:
        """`{jsonrpc, id, result}` or `{jsonrpc, id, error}` as JSON text with exact integers."""
        body: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id}
        if error is not None:
            body["error"] = error.to_json()
        else:
            body["result"] = result
        try:
            return dumps(body)
        except (TypeError, ValueError, RecursionError) as exc:
            raise _Fault("an answer that is not JSON") from exc


def _clip(message: str) -> str:
    """Error messages may quote client input; keep them short."""
    return message if len(message) <= MAX_MESSAGE_CHARS else message[: MAX_MESSAGE_CHARS - 1] + "…"


class _BodyTooLarge(Exception):
    pass


async def _read_body(receive: Receive, declared: bytes | None, cap: int) -> bytes | None:
    """The body, refused past `cap` bytes: by Content-Length first, then by counting as it streams,
    so a lying or absent Content-Length cannot get more than `cap` bytes read. None when the client
    went away before sending it all."""
    if declared is not None and declared.strip().isdigit() and int(declared) > cap:
        raise _BodyTooLarge
    body = bytearray()
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        body += message.get("body", b"")
        if len(body) > cap:
            raise _BodyTooLarge
        if not message.get("more_body", False):
            return bytes(body)


def _key_matches(query: bytes, expected: bytes) -> bool:
    """Exactly one `api-key` query value, compared in constant time (spec §5: query member `api-key`)."""
    given = [value for name, value in parse_qsl(query.decode("latin-1"), keep_blank_values=True) if name == "api-key"]
    return len(given) == 1 and hmac.compare_digest(given[0].encode("utf-8", "replace"), expected)


async def _send(send: Send, reply: Reply) -> None:
    headers = [(name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in reply.headers.items()]
    if reply.body is not None:
        headers += [(b"content-type", JSON.encode()), (b"content-length", str(len(reply.body)).encode())]
    await send({"type": "http.response.start", "status": reply.status, "headers": headers})
    await send({"type": "http.response.body", "body": reply.body or b""})


class _AnyMethod:
    """An ASGI endpoint for every HTTP method: Starlette treats a plain function as a GET-only
    request/response endpoint and would answer other methods with a plain-text 405 instead of
    our JSON one; an object is served as an ASGI app, whatever the method."""

    def __init__(self, app: Callable[[Scope, Receive, Send], Any]) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.app(scope, receive, send)


def create_app(dispatch: Dispatch, options: ServerOptions, *, contract: Contract | None = None) -> Starlette:
    """The ASGI app answering JSON-RPC on POST `/` and POST `/<method>` (spec §4.1-R1, R2).

    Choices where the spec is silent (observed practice unless said otherwise):
    - The path segment of `/<method>` is ignored; the body's `method` decides, even when they
      differ. Paths of two or more segments get 404 `{error}` (our choice).
    - Any request content type is accepted; the body is read as JSON whatever it says (§4.1-R3
      names only `application/json`; observed servers read the body regardless).
    - Non-POST: 405 `{error}` with `Allow: POST`. Body over `options.max_body_bytes`: 413 `{error}`.
    - With `options.api_key`, a request without exactly one matching `api-key` query value gets
      HTTP 401 `{"error": "missing or invalid api-key"}` (5-R4 leaves it open: our choice). The
      key is never logged or echoed.
    - `options.rate_limit` is one bucket for the whole server, one token per HTTP request (a batch
      counts once); over it: 429 `{"error": "rate limit exceeded"}` with `Retry-After` (7-R2).
    """
    rpc = JsonRpc(dispatch, options, contract or Contract.default())
    bucket = TokenBucket(options.rate_limit) if options.rate_limit is not None else None
    expected_key = options.api_key.encode("utf-8") if options.api_key is not None else None

    async def gates(scope: Scope, receive: Receive) -> Reply:
        """The gates in their order, then the answer: a plain ASGI path, no per-request objects."""
        if scope["path"].strip("/").count("/") > 0:
            return _error_reply(404, "not found")
        if scope["method"] != "POST":
            return _error_reply(405, "method not allowed", {"Allow": "POST"})
        if expected_key is not None and not _key_matches(scope.get("query_string", b""), expected_key):
            return _error_reply(401, "missing or invalid api-key")
        if bucket is not None and (wait := bucket.take()) > 0:
            return _error_reply(429, "rate limit exceeded", {"Retry-After": str(TokenBucket.retry_after(wait))})
        declared = next((value for name, value in scope["headers"] if name == b"content-length"), None)
        try:
            body = await _read_body(receive, declared, options.max_body_bytes)
        except _BodyTooLarge:
            return _error_reply(413, f"request body over {options.max_body_bytes} bytes", {"Connection": "close"})
        if body is None:
            return Reply(400, None)  # the client went away: nobody is left to read an answer
        if options.threads:
            return await run_in_threadpool(rpc.handle, body)
        return rpc.handle(body)

    async def endpoint(scope: Scope, receive: Receive, send: Send) -> None:
        try:
            reply = await gates(scope, receive)
        except Exception:  # a bug of the transport itself still answers §7-R3's `{error}`, never a traceback
            logger.exception("transport fault")
            reply = _error_reply(500, INTERNAL_ERROR)
        await _send(send, reply)

    return Starlette(routes=[Route("/{path:path}", _AnyMethod(endpoint))])
