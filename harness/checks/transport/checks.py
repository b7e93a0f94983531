"""Family `transport`: HTTP status, content type, both path forms (§4.1) and the api-key (§5)."""

from __future__ import annotations

from typing import Any

from csi_conformance.harness.connection import NOT_JSON, Exchange
from csi_conformance.harness.context import Answer, CheckContext, answer_value, describe
from csi_conformance.harness.core.failures import Mismatch, ReadingFailure, Skip
from csi_conformance.harness.core.model import Basis
from csi_conformance.harness.core.paths import BODY, HTTP_STATUS, header, member
from csi_conformance.harness.core.registry import answer_check, check
from csi_conformance.harness.judging.answers import is_envelope
from csi_conformance.harness.judging.compare import differences, json_path, sides
from csi_conformance.harness.judging.samples import sample_params
from csi_conformance.schema import Method


@answer_check("transport.success-status", clauses=("4.1-R6",),
              description="A successful answer comes with HTTP 200")
def success_status(ctx: CheckContext, answer: Answer) -> None:
    if not answer.has_result:
        return
    if answer.status != 200:
        ctx.fail("Success without HTTP 200", expected=200, received=answer.status, answer=answer, path=HTTP_STATUS,
                 kind=Mismatch)
    ctx.examined("answers")


@answer_check("transport.answered", clauses=("4.1-R6", "4.1-R3", "7-R2"),
              description="Every request gets an HTTP answer in time (a 429 only for a while), and an answer "
                          "that is not a failure status is JSON")
def answered(ctx: CheckContext, answer: Answer) -> None:
    exchange = answer.exchange
    if exchange.error:
        flood = exchange.error_kind == "rate-limited"
        ctx.fail("Rate limited without end" if flood else "No answer", expected="an HTTP answer",
                 received=exchange.error, answer=answer, basis=Basis.JSON_RPC if flood else Basis.SPEC, path=BODY,
                 clauses=("7-R2",) if flood else ("4.1-R6",),
                 detail=_deadline(ctx, exchange) if exchange.error_kind == "timeout" else None)
    # Bodies of 4xx and 5xx answers are schema.error-body's to judge (§7).
    if (exchange.status or 0) < 400 and exchange.json is NOT_JSON:
        stated = answer.method in ctx.contract.methods  # every answer §4.1 and §7 show for an operation is JSON
        ctx.fail("Answer is not JSON", expected="one JSON document: a JSON-RPC result or error (§4.1, §7)",
                 received=answer_value(answer), answer=answer,
                 clauses=("4.1-R3", "4.1-R6"), basis=Basis.SPEC if stated else Basis.JSON_RPC, path=BODY)
    ctx.examined("answers")


def _deadline(ctx: CheckContext, exchange: Exchange) -> dict[str, Any]:
    """What a timeout rests on: the kit's deadline (the spec shows none, 8-S3), the requests out beside it, the
    lone second attempt, and the option that sets the deadline."""
    deadline = exchange.deadline if exchange.deadline is not None else ctx.terms.timeout
    again, rules = exchange.asked_again, ctx.terms.deadlines
    detail: dict[str, Any] = {
        "deadline": f"{deadline:g} s ({rules.rule(exchange.method)}); the spec shows no timeout (8-S3)",
        "in flight": again.in_flight if again is not None else exchange.in_flight,
    }
    if again is not None:
        detail["asked again"] = f"once more, alone (the first attempt: {again.why}); {again.outcome}"
    detail["to change"] = f"raise {rules.flag(exchange.method)} for a target slower than this that still answers"
    return detail


@answer_check("transport.content-type", clauses=("4.1-R3",), basis=Basis.JSON_RPC,
              description="JSON answers are labelled `application/json`")
def content_type(ctx: CheckContext, answer: Answer) -> None:
    if answer.body is None or answer.exchange.error:
        return
    label = answer.exchange.headers.get("content-type", "")
    if label.split(";")[0].strip().lower() != "application/json":
        ctx.fail("Wrong content type", expected="application/json", received=label or None, answer=answer,
                 path=header("Content-Type"), kind=Mismatch)
    ctx.examined("answers")


@answer_check("transport.error-status", clauses=("7-R5",), basis=Basis.AMBIGUITY,
              description="Records the HTTP status JSON-RPC errors come with (not shown by the spec)")
def error_status(ctx: CheckContext, answer: Answer) -> None:
    if not is_envelope(ctx, answer) or answer.error is None or answer.status is None:
        return
    amb = ctx.contract.ambiguity("error-http-status")
    followed = ctx.contract.readings_followed(amb.id, answer.status, amb.definition)
    ctx.observe(amb.id, followed)
    if amb.observed not in followed:
        ctx.fail("Error status other than observed practice", expected={amb.id: amb.observed},
                 received={amb.id: list(followed)}, answer=answer, path=HTTP_STATUS, kind=ReadingFailure)
    ctx.examined("answers")


RANDOMISED = ("compressedProof",)
"""Members that legitimately differ between two answers to one request: a Groth16 proof is randomised
(two valid proofs of one statement differ), so only whether it is null is compared."""


def _comparable(answer: Answer) -> Any:
    """The answer without what legitimately differs between two calls: the id, the slot, a proof."""
    body = answer.body
    if not isinstance(body, dict):  # error kinds, not texts: a text names the path it was sent to
        return (answer.status, answer.exchange.error_kind, answer.exchange.json_error is not None)
    body = {k: v for k, v in body.items() if k != "id"}
    result = body.get("result")
    if isinstance(result, dict) and "context" in result:
        result = body["result"] = {k: v for k, v in result.items() if k != "context"}
    value = result.get("value") if isinstance(result, dict) else None
    if isinstance(value, dict) and any(member in value for member in RANDOMISED):
        result["value"] = {k: (v is None if k in RANDOMISED else v) for k, v in value.items()}
    if isinstance(body.get("error"), dict):
        body["error"] = {"code": body["error"].get("code")}
    return body


@check("transport.path-forms", clauses=("4.1-R1", "4.1-R2"),
       description="POST `/` and POST `/<method>` answer the same request the same way",
       methods=lambda method: True)
def path_forms(ctx: CheckContext, method: Method) -> None:
    params = sample_params(ctx, method)
    root = ctx.call(method.name, params)
    if root.body is None:
        raise Skip(f"POST / gave no JSON answer to compare /{method.name} with ({describe(root)})")
    named = ctx.call(method.name, params, path_form="method")
    found = differences(_comparable(named), _comparable(root))
    if found:
        expected, received = sides(found) if isinstance(named.body, dict) else (answer_value(root),
                                                                                 answer_value(named))
        ctx.fail("Path forms differ", expected=expected, received=received, answer=named,
                 path=json_path(found) if isinstance(named.body, dict) else HTTP_STATUS, kind=Mismatch)
    ctx.examined("pairs")


@check("transport.api-key", clauses=("5-R1", "5-R2", "5-R4"),
       description="The api-key in the query is accepted; what happens without it is recorded (an ambiguity "
                   "whose observed reading is `served`: the report's observations show it, no finding)")
def api_key(ctx: CheckContext) -> None:
    with_key = ctx.call("getIndexerSlot")
    if not with_key.has_result:
        given = "with the api-key in the query (§5)" if ctx.terms.api_key_given else "(no api-key was given)"
        ctx.fail("Request with api-key refused", expected=f"a result for getIndexerSlot {given}",
                 received=answer_value(with_key), answer=with_key,
                 path=member("error") if with_key.error else BODY)
    ctx.examined("answers")
    exchange = ctx.send({"jsonrpc": "2.0", "id": "csi-nokey", "method": "getIndexerSlot"}, with_key=False)
    amb = ctx.contract.ambiguity("api-key-missing")
    subject = {"status": exchange.status, "body": exchange.json if isinstance(exchange.json, dict) else {}}
    followed = ctx.contract.readings_followed(amb.id, subject, amb.definition)
    ctx.observe(amb.id, followed)
    ctx.examined("keyless requests")
