"""Family `transport`: HTTP status, content type, both path forms (§4.1) and the api-key (§5)."""

from __future__ import annotations

from typing import Any

from harness.checks.samples import sample_params
from harness.checks.support import is_envelope
from harness.core.model import Basis
from harness.core.registry import answer_check, check
from harness.engine.context import Answer, CheckContext, describe
from harness.target import NOT_JSON
from schema import Method


@answer_check("transport.success-status", clauses=("4.1-R6",),
              description="A successful answer comes with HTTP 200")
def success_status(ctx: CheckContext, answer: Answer) -> None:
    if answer.has_result and answer.status != 200:
        ctx.fail("Success without HTTP 200", expected="HTTP 200", received=f"HTTP {answer.status}", answer=answer)


@answer_check("transport.answered", clauses=("4.1-R6", "4.1-R3", "7-R2"),
              description="Every request gets an HTTP answer in time (a 429 only for a while)")
def answered(ctx: CheckContext, answer: Answer) -> None:
    exchange = answer.exchange
    if exchange.error:
        flood = exchange.error_kind == "rate-limited"
        ctx.fail("Rate limited without end" if flood else "No answer", expected="an HTTP answer",
                 received=exchange.error, answer=answer, basis=Basis.JSON_RPC if flood else Basis.SPEC)
    if exchange.status == 200 and exchange.json is NOT_JSON:
        ctx.fail("Answer is not JSON", expected="an HTTP 200 answer holding one JSON document (§4.1)",
                 received=exchange.json_error or "not JSON", answer=answer, clauses=("4.1-R3", "4.1-R6"))


@answer_check("transport.content-type", clauses=("4.1-R3",), basis=Basis.JSON_RPC,
              description="JSON answers are labelled `application/json`")
def content_type(ctx: CheckContext, answer: Answer) -> None:
    if answer.body is None or answer.exchange.error:
        return
    label = answer.exchange.headers.get("content-type", "")
    if label.split(";")[0].strip().lower() != "application/json":
        ctx.fail("Wrong content type", expected="Content-Type: application/json", received=label or "(none)",
                 answer=answer)


@answer_check("transport.error-status", clauses=("7-R5",), basis=Basis.AMBIGUITY,
              description="Records the HTTP status JSON-RPC errors come with (not shown by the spec)")
def error_status(ctx: CheckContext, answer: Answer) -> None:
    if not is_envelope(ctx, answer) or answer.error is None or answer.status is None:
        return
    amb = ctx.contract.ambiguity("error-http-status")
    followed = ctx.contract.readings_followed(amb.id, answer.status, amb.definition)
    ctx.observe(amb.id, followed)
    if amb.observed not in followed:
        ctx.fail("Error status other than observed practice", expected=f"either; observed practice is {amb.observed}",
                 received=f"HTTP {answer.status} with a JSON-RPC error", answer=answer)


def _comparable(answer: Answer) -> Any:
    """The answer without what legitimately differs between two calls: the id and the slot."""
    body = answer.body
    if not isinstance(body, dict):  # error kinds, not texts: a text names the path it was sent to
        return (answer.status, answer.exchange.error_kind, answer.exchange.json_error is not None)
    body = {k: v for k, v in body.items() if k != "id"}
    result = body.get("result")
    if isinstance(result, dict) and "context" in result:
        body["result"] = {k: v for k, v in result.items() if k != "context"}
    if isinstance(body.get("error"), dict):
        body["error"] = {"code": body["error"].get("code")}
    return body


@check("transport.path-forms", clauses=("4.1-R1", "4.1-R2"),
       description="POST `/` and POST `/<method>` answer the same request the same way",
       methods=lambda method: True)
def path_forms(ctx: CheckContext, method: Method) -> None:
    params = sample_params(ctx, method)
    root = ctx.call(method.name, params)
    named = ctx.call(method.name, params, path_form="method")
    if _comparable(root) != _comparable(named):
        ctx.fail("Path forms differ", expected=f"/{method.name} to answer as / does: {describe(root)}",
                 received=describe(named), answer=named)


@check("transport.api-key", clauses=("5-R1", "5-R2", "5-R4"),
       description="The api-key in the query is accepted; what happens without it is recorded")
def api_key(ctx: CheckContext) -> None:
    with_key = ctx.call("getIndexerSlot")
    if not with_key.has_result:
        ctx.fail("Request with api-key refused", expected="a result", received=describe(with_key), answer=with_key)
    exchange = ctx.send({"jsonrpc": "2.0", "id": "csi-nokey", "method": "getIndexerSlot"}, with_key=False)
    amb = ctx.contract.ambiguity("api-key-missing")
    subject = {"status": exchange.status, "body": exchange.json if isinstance(exchange.json, dict) else {}}
    followed = ctx.contract.readings_followed(amb.id, subject, amb.definition)
    ctx.observe(amb.id, followed)
    if ctx.target.api_key and followed == ("served",):
        ctx.fail("Served without api-key", expected="either (not shown by the spec); with a key configured, "
                 "a keyless request is commonly refused", received=f"HTTP {exchange.status}, served",
                 basis=Basis.AMBIGUITY)
