"""An answer as a finding shows it: in one line (`describe`), or as the JSON value a finding receives."""

from __future__ import annotations

from typing import Any

from csi_conformance.groundwork.jsonio import dumps
from csi_conformance.harness.answer import Answer
from csi_conformance.harness.connection import NOT_JSON, Exchange
from csi_conformance.harness.core.values import CLIP_CHARS, clip

__all__ = ["answer_value", "body_value", "describe"]


def describe(answer: Answer, limit: int = 300) -> str:
    """A one-line account of an answer for `Received:`."""
    ex = answer.exchange
    if ex.error:
        return f"transport error: {ex.error}"
    if ex.json is NOT_JSON:
        return f"HTTP {ex.status}, not JSON ({ex.json_error})"
    if answer.error is not None:
        return f"HTTP {ex.status}, error {answer.error.get('code')}: {str(answer.error.get('message'))[:limit]}"
    text = dumps(answer.body)
    return f"HTTP {ex.status}, {text[:limit]}{'…' if len(text) > limit else ''}"


def answer_value(answer: Answer) -> Any:
    """What an answer holds where a check looks first, as a JSON value for a finding's `received`: the
    error object of an error, the result of a success, else what came instead (a transport error, a
    body that is not JSON, an object that is neither)."""
    if answer.exchange.error:
        return {"transport_error": answer.exchange.error}
    if answer.exchange.json is NOT_JSON:
        return body_value(answer.exchange)
    if answer.error is not None:
        return clip(answer.error)
    if answer.has_result:
        return clip(answer.result)
    return clip(answer.body)


def body_value(exchange: Exchange) -> Any:
    """What an answer's body held, as a JSON value: the JSON itself (cut), or for a body that is not JSON
    its status, why it is not JSON and its first characters."""
    if exchange.json is NOT_JSON:
        return {"http_status": exchange.status, "not_json": exchange.json_error,
                "body": clip(exchange.body[:CLIP_CHARS].decode("utf-8", "replace"))}
    return clip(exchange.json)
