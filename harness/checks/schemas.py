"""Family `schema`: every answer validates against the contract, under the profile's readings.

The readings observer also lives here: for each ambiguity an answer can touch it records which
readings the answer is consistent with (the report always shows this), and a reading other than
the observed practice becomes a finding whose status the profile decides (AMBIGUOUS by default).
"""

from __future__ import annotations

from harness.checks.support import is_envelope, is_plain_error_body
from harness.core.model import Basis
from harness.core.registry import answer_check
from harness.engine.context import Answer, CheckContext
from harness.target import NOT_JSON

OBSERVE_PER_METHOD = 10
"""Answers per (method, ambiguity) the observer classifies; enough to see a reading, bounded in cost."""


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
    problems = ctx.contract.response_validator(answer.method, ctx.readings).violations(answer.body)
    if problems:
        ctx.fail("Answer breaks the result schema", expected=f"a {answer.method} answer as the contract describes",
                 received="; ".join(str(p) for p in problems[:5]), answer=answer,
                 clauses=(ctx.contract.method(answer.method).clause, "4.1-R6", "4.1-R7"))


@answer_check("schema.context-slot", clauses=("1-R1", "2.2-R1"),
              description="Every answer about indexed state carries `context.slot`, a non-negative integer")
def context_slot(ctx: CheckContext, answer: Answer) -> None:
    if not _known(ctx, answer) or not ctx.contract.method(answer.method).state or not answer.has_result:
        return
    result_ = answer.result
    slot = result_.get("context", {}).get("slot") if isinstance(result_, dict) and isinstance(
        result_.get("context"), dict) else None
    if type(slot) is not int or slot < 0:
        ctx.fail("No context slot", expected="result.context.slot, a non-negative integer",
                 received=repr(result_)[:200], answer=answer)


@answer_check("schema.error-body", clauses=("7-R2", "7-R3", "7-R4"),
              description="HTTP 429 and 500 answers, and other failures outside JSON-RPC, have the body "
                          "`{error: string}`")
def error_body(ctx: CheckContext, answer: Answer) -> None:
    if (answer.status or 200) < 400 or answer.exchange.error or answer.error is not None:
        return
    if answer.exchange.json is NOT_JSON or not is_plain_error_body(answer):
        stated = answer.status in (429, 500)  # 7-R2, 7-R3; other statuses are "some other operations" (7-R4)
        ctx.fail(f"Malformed HTTP {answer.status} body", expected="{error: string}",
                 received=answer.exchange.body[:200].decode("utf-8", "replace"), answer=answer,
                 basis=Basis.SPEC if stated else Basis.JSON_RPC)


@answer_check("schema.ambiguity-readings",
              clauses=("2.1-R6", "3.1-R1", "4.1-R7", "2.10-R1", "2.10-R2", "2.11-R2", "2.11-R4", "2.11-R5"),
              basis=Basis.AMBIGUITY,
              description="Records which reading of each open point the answers follow; reports non-observed ones")
def ambiguity_readings(ctx: CheckContext, answer: Answer) -> None:
    if not _known(ctx, answer) or is_plain_error_body(answer) or "error" in answer.body:
        return
    definition = f"{answer.method}.response"
    unusual = []
    for amb_id in ctx.contract.ambiguities_in(definition):
        seen = ctx.cache.setdefault("observed", {})
        if seen.get((answer.method, amb_id), 0) >= OBSERVE_PER_METHOD:
            continue
        seen[(answer.method, amb_id)] = seen.get((answer.method, amb_id), 0) + 1
        amb = ctx.contract.ambiguity(amb_id)
        followed = ctx.contract.readings_followed(amb_id, answer.body, definition)
        if not followed or len(followed) == len(amb.readings):
            continue  # the answer breaks every reading (schema.result reports it) or does not touch the point
        ctx.observe(amb_id, followed)
        if amb.observed not in followed:
            unusual.append(f"{amb_id}: {'/'.join(followed)} (observed practice: {amb.observed})")
    if unusual:
        ctx.fail("Reading other than observed practice", expected="either reading is allowed by the spec",
                 received="; ".join(unusual), answer=answer)
