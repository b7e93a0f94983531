"""Small judgements several families share: what kind of body an answer is, and a valid request refused."""

from __future__ import annotations

from csi_conformance.harness.context import Answer, CheckContext
from csi_conformance.harness.core.failures import CheckFailure
from csi_conformance.harness.core.model import Basis
from csi_conformance.harness.core.paths import BODY, member
from csi_conformance.harness.core.values import clip

__all__ = ["defer_refused", "is_envelope", "is_plain_error_body", "outcome_path", "state_value"]


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


def _followed(ctx: CheckContext, ambiguity: str) -> tuple[str, ...]:
    """The readings of a point every answer of the run so far was consistent with (all, before any answer)."""
    answers = ctx.observed.answers_seen.get(ambiguity, 0)
    if not answers:
        return tuple(ctx.contract.ambiguity(ambiguity).readings)
    return tuple(name for name, count in ctx.observed.readings_seen.get(ambiguity, {}).items() if count == answers)


def defer_refused(ctx: CheckContext, answer: Answer | None) -> bool:
    """A request the kit sent, valid by the contract, answered with a JSON-RPC error: a finding of the running
    check, wherever it happens (a page of a walk, one side of a comparison), so a comparison is never skipped
    in silence. The basis is the spec when the params are valid under every reading of the points the spec
    leaves open, the ambiguity when only under some (the target may follow another). A refusal the readings
    the target was seen to follow explain (it refuses `newAddressesWithTrees` without `hashes` and reads `hashes`
    as required) is no finding: the ambiguity report says which reading it follows. True when deferred."""
    if answer is None or answer.error is None or answer.method not in ctx.contract.methods:
        return False
    method = ctx.contract.method(answer.method)
    params = {} if answer.params is None and method.params_kind == "object" else answer.params
    definition = f"{method.name}.params"
    if not ctx.contract.validator(definition).is_valid(params):
        return False  # not valid under any reading: its refusal is no fault
    valid_under = {amb: ctx.contract.readings_followed(amb, params, definition)
                   for amb in ctx.contract.ambiguities_in(definition)}
    open_points = [amb for amb, readings in valid_under.items()
                   if len(readings) < len(ctx.contract.ambiguity(amb).readings)]
    if any(not set(valid_under[amb]) & set(_followed(ctx, amb)) for amb in open_points):
        return False
    ctx.defer(CheckFailure("Valid request refused", expected="a result: the params are valid by the contract",
                           received=clip(answer.error), answer=answer, method=answer.method, path=member("error"),
                           basis=Basis.AMBIGUITY if open_points else Basis.SPEC,
                           clauses=(method.clause, "4.1-R5"), detail={"open points": open_points} if open_points
                           else None))
    return True
