"""Family `envelope`: JSON-RPC 2.0 framing of every answer, and how odd requests are met.

The spec states the success and error members (§4.1, §7); parse errors, invalid requests,
numeric ids, notifications and batches are JSON-RPC conventions it does not restate, so
those checks rest on `Basis.JSON_RPC` (WARN in the spec profile).
"""

from __future__ import annotations

from csi_conformance.harness.connection import Exchange
from csi_conformance.harness.context import Answer, CheckContext, answer_value, body_value
from csi_conformance.harness.core.failures import CheckFailure, Mismatch, SchemaViolation
from csi_conformance.harness.core.model import Basis
from csi_conformance.harness.core.paths import BODY, HTTP_STATUS, from_pointer, member
from csi_conformance.harness.core.registry import answer_check, check
from csi_conformance.harness.judging.answers import is_envelope
from csi_conformance.harness.judging.violations import closest_violations, schema_document, violations_text

JSON_RPC = "2.0"


@answer_check("envelope.jsonrpc-member", clauses=("4.1-R6", "9-R1"),
              description='Every JSON-RPC answer carries `jsonrpc: "2.0"`')
def jsonrpc_member(ctx: CheckContext, answer: Answer) -> None:
    if not is_envelope(ctx, answer):
        return
    if answer.body.get("jsonrpc") != JSON_RPC:
        if "jsonrpc" not in answer.body:
            ctx.fail("Wrong jsonrpc member", expected=f'a `jsonrpc` member "{JSON_RPC}"',
                     received="no `jsonrpc` member", answer=answer, path=member("jsonrpc"))
        ctx.fail("Wrong jsonrpc member", expected=JSON_RPC, received=answer.body["jsonrpc"], answer=answer,
                 path=member("jsonrpc"), kind=Mismatch)
    ctx.examined("answers")


@answer_check("envelope.result-xor-error", clauses=("4.1-R6", "7-R1"),
              description="An answer holds exactly one of `result` and `error`")
def result_xor_error(ctx: CheckContext, answer: Answer) -> None:
    if not is_envelope(ctx, answer):
        return
    members = [m for m in ("result", "error") if m in answer.body]
    if len(members) != 1:
        ctx.fail("Not exactly one of result and error", expected="exactly one of `result`, `error`",
                 received=members, answer=answer, path=BODY)
    ctx.examined("answers")


@answer_check("envelope.id-echoed", clauses=("4.1-R4", "4.1-R6"),
              description="The request `id` comes back unchanged in the answer")
def id_echoed(ctx: CheckContext, answer: Answer) -> None:
    if not is_envelope(ctx, answer):
        return
    sent = answer.exchange.request.get("id") if isinstance(answer.exchange.request, dict) else None
    if answer.body.get("id") != sent or type(answer.body.get("id")) is not type(sent):
        ctx.fail("Request id not echoed", expected=sent, received=answer.body.get("id"), answer=answer,
                 path=member("id"), kind=Mismatch)
    if answer.has_result:  # the id was taken: the target reads ids as a reading that allows this one
        ctx.observe(REQUEST_ID, _id_readings(ctx, sent))
    ctx.examined("answers")


REQUEST_ID = "request-id"
"""The open point of what a request id may be (§4.1): every answered request is evidence of it."""


def _id_readings(ctx: CheckContext, sent: object) -> tuple[str, ...]:
    """The readings of `request-id` under which the id sent is a valid one."""
    return ctx.contract.readings_followed(REQUEST_ID, sent, ctx.contract.ambiguity(REQUEST_ID).definition)


@answer_check("envelope.error-object", clauses=("7-R1",),
              description="An error answer's `error` is an object with an integer `code` and a string `message`")
def error_object(ctx: CheckContext, answer: Answer) -> None:
    if not is_envelope(ctx, answer) or "error" not in answer.body:
        return
    problems = ctx.contract.validator("Error").violations(answer.body)
    if problems:
        found = closest_violations(ctx, schema_document(ctx, "Error"), problems, answer.body)
        ctx.fail("Malformed error object", expected="{id, jsonrpc, error: {code: integer, message: string}}",
                 received=violations_text(found), answer=answer, path=from_pointer(found[0].path),
                 kind=SchemaViolation)
    codes = ctx.contract.ambiguity("error-codes")  # which codes (not shown by the spec): every error tells
    ctx.observe(codes.id, ctx.contract.readings_followed(codes.id, answer.body["error"]["code"], codes.definition))
    ctx.examined("answers")


@check("envelope.numeric-id", clauses=("4.1-R4",), basis=Basis.JSON_RPC,
       description="A numeric request id is echoed as the same number (JSON-RPC 2.0)")
def numeric_id(ctx: CheckContext) -> None:
    sent = 2**53 + 7
    answer = ctx.call("getIndexerSlot", id=sent)
    if not isinstance(answer.body, dict) or answer.body.get("id") != sent or type(answer.body["id"]) is not int:
        received = answer.body.get("id") if isinstance(answer.body, dict) else answer_value(answer)
        if answer.error is not None:  # refused: the target's ids are not numbers (id-echoed records answered ones)
            ctx.observe(REQUEST_ID, tuple(r for r in ctx.contract.ambiguity(REQUEST_ID).readings
                                          if r not in _id_readings(ctx, sent)))
        ctx.fail("Numeric id not echoed", expected=sent, received=received, answer=answer, path=member("id"),
                 kind=Mismatch)
    ctx.examined("answers")


def _sent_and_got(exchange: Exchange) -> object:
    """What came back to a raw payload, as a JSON value: the body, or what came instead of JSON."""
    if exchange.error:
        return {"transport_error": exchange.error}
    return body_value(exchange)


def _raw_error(ctx: CheckContext, payload: object, title: str, code: int, *, expect_null_id: bool = False) -> None:
    """A malformed request must get a JSON-RPC error with `code` (JSON-RPC 2.0); a result breaks the spec."""
    exchange = ctx.send(payload)
    body = exchange.json
    if isinstance(body, dict) and "result" in body:
        ctx.fail(title, expected="no result for a malformed request", received=_sent_and_got(exchange),
                 basis=Basis.SPEC, path=member("result"))
    if not isinstance(body, dict) or not isinstance(body.get("error"), dict):
        ctx.fail(title, expected=f"a JSON-RPC error object with code {code}", received=_sent_and_got(exchange),
                 basis=Basis.JSON_RPC, path=member("error") if isinstance(body, dict) else BODY)
    if body["error"].get("code") != code or (expect_null_id and body.get("id") is not None):
        if body["error"].get("code") != code:
            ctx.fail(title, expected=code, received=body["error"].get("code"), basis=Basis.JSON_RPC,
                     path=member("error", "code"), kind=Mismatch)
        ctx.fail(title, expected=None, received=body.get("id"), basis=Basis.JSON_RPC, path=member("id"), kind=Mismatch)
    ctx.examined("answers")


NOT_JSON_BODIES = (b'{"jsonrpc": "2.0", "id": "csi-parse", "method": ', b"not json at all", b"")
"""Bodies that are no JSON: truncated, plain text, empty. Whatever status they get, its body is judged too
(schema.error-body: §7 gives the body of a 429 and a 500 whatever provoked it)."""


@check("envelope.parse-error", clauses=("4.1-R3", "7-R1"), basis=Basis.JSON_RPC,
       description="A body that is not JSON (truncated, plain text, empty) gets a -32700 parse error with id null")
def parse_error(ctx: CheckContext) -> None:
    for body in NOT_JSON_BODIES:
        _raw_error(ctx, body, "No parse error for broken JSON", -32700, expect_null_id=True)


@check("envelope.invalid-request", clauses=("9-R1", "4.1-R4"), basis=Basis.JSON_RPC,
       description='A request whose `jsonrpc` is not "2.0" is refused with -32600')
def invalid_request(ctx: CheckContext) -> None:
    _raw_error(ctx, {"jsonrpc": "1.0", "id": "csi-invalid", "method": "getIndexerSlot"},
               "Wrong jsonrpc version accepted", -32600)


@check("envelope.unknown-method", clauses=("4.1-R4",),
       description="An operation name not in §4.2 never gets a result (JSON-RPC code -32601)")
def unknown_method(ctx: CheckContext) -> None:
    answer = ctx.call("getCompressedAccountz", {"hash": ctx.fresh_pubkey()})
    if answer.has_result:
        ctx.fail("Unknown method answered", expected="an error", received=answer_value(answer), answer=answer,
                 path=member("result"))
    if answer.error is None or answer.error.get("code") != -32601:
        ctx.fail("Unknown method not -32601", expected=-32601,
                 received=answer.error.get("code") if answer.error else answer_value(answer), answer=answer,
                 basis=Basis.JSON_RPC, path=member("error", "code") if answer.error else BODY,
                 kind=Mismatch if answer.error else CheckFailure)
    ctx.examined("answers")


@check("envelope.notification", clauses=("4.1-R4",), basis=Basis.JSON_RPC,
       description="A request without `id` is a notification and gets no JSON-RPC answer")
def notification(ctx: CheckContext) -> None:
    exchange = ctx.send({"jsonrpc": JSON_RPC, "method": "getIndexerSlot"})
    if exchange.error or (exchange.status or 0) >= 500:
        ctx.fail("Notification failed", expected="HTTP 200/204 with no body", received=_sent_and_got(exchange),
                 path=BODY if exchange.error else HTTP_STATUS)
    if exchange.body.strip() and isinstance(exchange.json, dict) and "result" in exchange.json:
        ctx.fail("Notification answered", expected="no answer body", received=_sent_and_got(exchange), path=BODY)
    ctx.examined("answers")


@check("envelope.batch", clauses=("4.1-R4",), basis=Basis.JSON_RPC,
       description="A batch (JSON array of requests) gets an array of answers matched by id")
def batch(ctx: CheckContext) -> None:
    requests = [{"jsonrpc": JSON_RPC, "id": f"csi-batch-{i}", "method": "getIndexerSlot"} for i in range(2)]
    exchange = ctx.send(requests)
    body = exchange.json
    ids = sorted(str(item.get("id")) for item in body if isinstance(item, dict)) if isinstance(body, list) else None
    if ids != ["csi-batch-0", "csi-batch-1"]:
        ctx.fail("Batch not answered", expected="an array of two answers with ids csi-batch-0 and csi-batch-1",
                 received=_sent_and_got(exchange), path=BODY)
    ctx.examined("answers")
    garbage = ctx.send(GARBAGE_BATCH)
    codes = [item.get("error", {}).get("code") if isinstance(item, dict) and isinstance(item.get("error"), dict)
             else None for item in garbage.json] if isinstance(garbage.json, list) else None
    if codes != [-32600] * len(GARBAGE_BATCH):
        ctx.fail("Batch of garbage not refused item by item", expected=f"an array of {len(GARBAGE_BATCH)} "
                 "JSON-RPC errors -32600 (invalid request)", received=_sent_and_got(garbage), path=BODY)
    ctx.examined("answers")


GARBAGE_BATCH = [1, "x", None]
"""A batch none of whose items is a request: JSON-RPC 2.0 answers each with an invalid-request error."""
