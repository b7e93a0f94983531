"""Small judgements several families share: what kind of body an answer is."""

from __future__ import annotations

from harness.context import Answer, CheckContext
from harness.core.paths import BODY, member

__all__ = ["is_envelope", "is_plain_error_body", "outcome_path", "state_value"]


def outcome_path(answer: Answer) -> str:
    """The member a wrong outcome is at: `$.error` for an error where a result belongs, `$.result` for a
    result where an error belongs, the whole body when it is neither."""
    if answer.error is not None:
        return member("error")
    if answer.has_result:
        return member("result")
    return BODY


def is_plain_error_body(answer: Answer) -> bool:
    """A bare `{error: string}` body (§7: HTTP 429, HTTP 500, some other failures), not JSON-RPC."""
    body = answer.body
    return isinstance(body, dict) and set(body) == {"error"} and isinstance(body["error"], str)


def is_envelope(ctx: CheckContext, answer: Answer) -> bool:
    """Whether the envelope checks apply: a JSON object that is not a §7 plain error body and not
    the bare reading of a method whose wrapper is an ambiguity (balance-wrapper)."""
    body = answer.body
    if not isinstance(body, dict) or is_plain_error_body(answer):
        return False
    if answer.method in ctx.contract.methods and ctx.contract.method(answer.method).response_schema is not None:
        return any(member in body for member in ("jsonrpc", "result", "error", "id"))
    return True


def state_value(ctx: CheckContext, answer: Answer) -> object:
    """`value` of a state answer, in the wrapped or (for balance-wrapper methods) bare reading."""
    body = answer.body
    if answer.has_result and isinstance(answer.result, dict):
        return answer.result.get("value")
    if isinstance(body, dict) and "context" in body and "value" in body and not is_envelope(ctx, answer):
        return body["value"]
    return None
