"""Family `schema`: every answer validates against the contract, under the profile's readings.

The readings observer also lives here: for each ambiguity an answer can touch it records which
readings the answer is consistent with (the report always shows this), and a reading other than
the observed practice becomes a finding whose status the profile decides (AMBIGUOUS by default).
Under a profile that pins the observed readings (strict), an answer the spec allows but that
follows another reading is reported as exactly that, with basis AMBIGUITY, never as a broken spec.
"""

from __future__ import annotations

from harness.context import Answer, CheckContext, body_value
from harness.core.failures import ReadingFailure, SchemaViolation
from harness.core.model import Basis
from harness.core.paths import BODY, member
from harness.core.registry import answer_check
from harness.judging.answers import is_envelope, is_plain_error_body
from harness.judging.violations import (
    ABSENT,
    closest_violations,
    followed_readings,
    reading_member,
    schema_document,
    violations_text,
    wrong_member,
    wrong_value,
)
from harness.target import NOT_JSON

OBSERVE_PER_METHOD = 10
"""Answers per (method, ambiguity) the observer classifies; enough to see a reading, bounded in cost."""
STATED_ERROR_BODIES = {429: "7-R2", 500: "7-R3"}
"""HTTP statuses whose body §7 states (`{error: string}`), with the clause stating it."""


def _known(ctx: CheckContext, answer: Answer) -> bool:
    return answer.method in ctx.contract.methods and answer.body is not None


RESULT_CLAUSES = ("4.1-R6", "4.1-R7", "2.3-R1", "2.4-R1", "2.5-R1", "2.6-R1", "2.7-R1", "2.8-R1", "2.8-R2",
                  "2.9-R1", "2.10-R1", "2.11-R1", "2.11-R2", "2.11-R3",
                  *(f"4.2-M{row}" for row in range(1, 20)))


@answer_check("schema.result", clauses=RESULT_CLAUSES,
              description="A successful answer validates against the method's result schema")
def result(ctx: CheckContext, answer: Answer) -> None:
    if not _known(ctx, answer) or (is_envelope(ctx, answer) and "result" not in answer.body):
        return
    if is_plain_error_body(answer):
        return
    method = ctx.contract.method(answer.method)
    if ctx.contract.response_validator(answer.method, ctx.readings).is_valid(answer.body):
        ctx.examined("answers")
        return
    problems = ctx.contract.response_validator(answer.method).violations(answer.body)
    if problems:  # wrong under every reading: the spec is broken
        document = schema_document(ctx, f"{answer.method}.response")
        found = closest_violations(ctx, document, problems, answer.body)
        ctx.fail("Answer breaks the result schema", expected=violations_text(found),
                 received=wrong_value(found, answer.body), answer=answer, clauses=(method.clause, "4.1-R6", "4.1-R7"),
                 path=wrong_member(found), kind=SchemaViolation)
    _pinned_readings(ctx, answer)


def _pinned_readings(ctx: CheckContext, answer: Answer) -> None:
    """The answer is valid under some reading but not under the profile's pinned ones: say which."""
    definition = f"{answer.method}.response"
    clauses, broken, followed_by = [], {}, {}
    for amb_id in ctx.contract.ambiguities_in(definition):
        amb = ctx.contract.ambiguity(amb_id)
        pinned = ctx.readings.get(amb_id)
        followed = followed_by[amb_id] = followed_readings(ctx, answer, amb_id)
        if pinned and not set(pinned) & set(followed):
            clauses.append(amb.clause)
            broken[amb_id] = pinned[0]
    if broken:
        first, reading = next(iter(broken.items()))
        ctx.fail("Reading other than the pinned one", expected=broken,
                 received={amb_id: list(followed_by[amb_id]) for amb_id in broken}, answer=answer,
                 basis=Basis.AMBIGUITY, clauses=tuple(clauses), kind=ReadingFailure,
                 path=reading_member(ctx, first, reading, answer.body, definition, followed_by))
    ctx.examined("answers")


@answer_check("schema.context-slot", clauses=("1-R1", "2.2-R1"),
              description="Every answer about indexed state carries `context.slot`, a non-negative integer")
def context_slot(ctx: CheckContext, answer: Answer) -> None:
    if not _known(ctx, answer) or not ctx.contract.method(answer.method).state or not answer.has_result:
        return
    result_ = answer.result
    context = result_.get("context") if isinstance(result_, dict) else None
    slot = context.get("slot") if isinstance(context, dict) else None
    if type(slot) is not int or slot < 0:
        ctx.fail("No context slot", expected="a non-negative integer slot in `result.context`",
                 received=ABSENT if context is None else slot, answer=answer,
                 path=member("result", "context") if context is None else member("result", "context", "slot"))
    ctx.examined("answers")


@answer_check("schema.error-body", clauses=("7-R1", "7-R2", "7-R3", "7-R4"),
              description="HTTP 429 and 500 answers, and other failures outside JSON-RPC, have the body "
                          "`{error: string}`")
def error_body(ctx: CheckContext, answer: Answer) -> None:
    exchange = answer.exchange
    flooded = exchange.error_kind == "rate-limited"  # the last 429 was read whole
    if (answer.status or 200) < 400 or (exchange.error and not flooded) or answer.error is not None:
        return
    if exchange.json is NOT_JSON or not is_plain_error_body(answer):
        stated = STATED_ERROR_BODIES.get(answer.status)
        # §7 states `{error: string}` for 429 and 500 only; it shows no status for the JSON-RPC error body and
        # says other statuses are "not shown", so any other status's body (a gateway's 502 page) is a convention.
        basis = Basis.SPEC if stated else Basis.JSON_RPC
        if answer.method not in ctx.contract.methods:
            basis = Basis.JSON_RPC  # an operation the spec does not have: nothing it states applies
        ctx.fail(f"Malformed HTTP {answer.status} body", expected="{error: string}" if stated else
                 "{error: string} or a JSON-RPC error object (§7)", received=body_value(exchange), answer=answer,
                 basis=basis,
                 clauses=(stated,) if stated else ("7-R1", "7-R4"),
                 path=member("error") if isinstance(answer.body, dict) and "error" in answer.body else BODY)
    ctx.examined("answers")


@answer_check("schema.ambiguity-readings",
              clauses=("2.1-R6", "3.1-R1", "4.1-R7", "2.10-R1", "2.10-R2", "2.11-R2", "2.11-R4", "2.11-R5"),
              basis=Basis.AMBIGUITY,
              description="Records which reading of each open point the answers follow; reports non-observed ones")
def ambiguity_readings(ctx: CheckContext, answer: Answer) -> None:
    if not _known(ctx, answer) or is_plain_error_body(answer) or not isinstance(answer.body, dict) or (
            "error" in answer.body):
        return
    definition = f"{answer.method}.response"
    unusual, touched, followed_by = {}, 0, {}
    seen = ctx.cache.setdefault("observed", {})
    for amb_id in ctx.contract.ambiguities_in(definition):
        if seen.get((answer.method, amb_id), 0) >= OBSERVE_PER_METHOD:
            continue
        amb = ctx.contract.ambiguity(amb_id)
        followed = followed_by[amb_id] = followed_readings(ctx, answer, amb_id)
        if not followed or len(followed) == len(amb.readings):
            continue  # the answer breaks every reading (schema.result reports it) or does not touch the point
        seen[(answer.method, amb_id)] = seen.get((answer.method, amb_id), 0) + 1
        touched += 1
        ctx.observe(amb_id, followed)
        if amb.observed not in followed and not ctx.profile.pin_observed:  # pinned: schema.result reports it
            unusual[amb_id] = amb.observed
    if unusual:
        first, observed = next(iter(unusual.items()))
        ctx.fail("Reading other than observed practice", expected=unusual,
                 received={amb_id: list(followed_by[amb_id]) for amb_id in unusual}, answer=answer, kind=ReadingFailure,
                 path=reading_member(ctx, first, observed, answer.body, definition, followed_by))
    ctx.examined("readings", touched)
