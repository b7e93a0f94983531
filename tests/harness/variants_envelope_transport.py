"""Broken variants for the envelope and transport checks: one fault of JSON-RPC framing or HTTP each."""

from __future__ import annotations

from typing import Any

from csi_conformance.groundwork.jsonio import dumps, loads
from csi_conformance.reference_server.errors import RpcError

from .broken import Dispatch, Variant, _json_body

HTML = {"content-type": "text/html; charset=utf-8"}


def _error_message_number(document: Any) -> Any:
    if isinstance(document, dict) and isinstance(document.get("error"), dict):
        document["error"]["message"] = 42
    return document


def _result_beside_error(document: Any) -> Any:
    if isinstance(document, dict) and "error" in document:
        document["result"] = None
    return document


def _numeric_id_as_text(document: Any) -> Any:
    if isinstance(document, dict) and type(document.get("id")) is int:
        document["id"] = str(document["id"])
    return document


def _parse_error_as_invalid_request(document: Any) -> Any:
    if isinstance(document, dict) and isinstance(document.get("error"), dict) and document["error"]["code"] == -32700:
        document["error"]["code"] = -32600
    return document


def _invalid_request_served(document: Any) -> Any:
    """A request with `jsonrpc: "1.0"` gets a result instead of -32600."""
    if isinstance(document, dict) and isinstance(document.get("error"), dict) and document["error"]["code"] == -32600:
        return {"jsonrpc": "2.0", "id": document.get("id"), "result": 1}
    return document


def _first_of_batch(path: str, status: int, headers: dict, body: bytes) -> tuple[int, dict, bytes]:
    if body.startswith(b"["):
        return status, headers, dumps(loads(body)[0]).encode()
    return status, headers, body


def _notification_answered(path: str, status: int, headers: dict, body: bytes) -> tuple[int, dict, bytes]:
    if status == 204:
        return 200, {**headers, "content-type": "application/json"}, b'{"jsonrpc":"2.0","id":null,"result":1}'
    return status, headers, body


def _html_health(path: str, status: int, headers: dict, body: bytes) -> tuple[int, dict, bytes]:
    """getIndexerHealth's `ok` comes as an HTML page with HTTP 200."""
    if b'"result":"ok"' in body:
        return 200, {**headers, **HTML}, b"<html><body>ok</body></html>"
    return status, headers, body


def _errors_with_400(path: str, status: int, headers: dict, body: bytes) -> tuple[int, dict, bytes]:
    return (400 if status == 200 and b'"error":{' in body else status), headers, body


def _slot_refused(real: Dispatch, method: str, params: Any) -> Any:
    if method == "getIndexerSlot":
        raise RpcError(-32000, "Unauthorized: api-key not accepted")
    return real(method, params)


VARIANTS = [
    Variant("error-message-number", "envelope", "envelope.error-object", http=_json_body(_error_message_number),
            only=("envelope", "params"), clauses=("7-R1",)),
    Variant("result-beside-error", "envelope", "envelope.result-xor-error", http=_json_body(_result_beside_error),
            only=("envelope", "params"), clauses=("7-R1",)),
    # proves no clause: the spec knows only string ids (4.1-R4): a numeric id is JSON-RPC's
    Variant("numeric-id-as-text", "envelope", "envelope.numeric-id", http=_json_body(_numeric_id_as_text)),
    # proves no clause: error codes are not shown (7-R5): -32700 is JSON-RPC's
    Variant("parse-error-as-invalid-request", "envelope", "envelope.parse-error",
            http=_json_body(_parse_error_as_invalid_request)),
    Variant("jsonrpc-1.0-served", "envelope", "envelope.invalid-request", http=_json_body(_invalid_request_served),
            clauses=("9-R1",)),
    # proves no clause: batches are JSON-RPC's, not the spec's
    Variant("batch-first-only", "envelope", "envelope.batch", http=_first_of_batch),
    # proves no clause: notifications are JSON-RPC's: the spec requires an id (4.1-R4)
    Variant("notification-answered", "envelope", "envelope.notification", http=_notification_answered),
    Variant("html-health", "transport", "transport.answered", http=_html_health,
            clauses=("4.1-R6",)),
    # proves no clause: the status of an error is not shown (7-R5): a reading of ambiguity error-http-status
    Variant("errors-with-http-400", "transport", "transport.error-status", http=_errors_with_400,
            only=("transport", "params")),
    Variant("slot-refused", "transport", "transport.api-key", dispatch=_slot_refused, clauses=("5-R1",)),
]
