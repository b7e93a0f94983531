"""Family `schema`: every answer validates against the contract, under the profile's readings.

The readings observer also lives here: for each ambiguity an answer can touch it records which
readings the answer is consistent with (the report always shows this), and a reading other than
the observed practice becomes a finding whose status the profile decides (AMBIGUOUS by default).
Under a profile that pins the observed readings (strict), an answer the spec allows but that
follows another reading is reported as exactly that, with basis AMBIGUITY, never as a broken spec.
"""

from __future__ import annotations

import re

from csi_conformance.harness.connection import NOT_JSON
from csi_conformance.harness.context import Answer, CheckContext, MemoKey, body_value
from csi_conformance.harness.core.failures import ReadingFailure, SchemaViolation
from csi_conformance.harness.core.model import Basis
from csi_conformance.harness.core.paths import BODY, member
from csi_conformance.harness.core.registry import REGISTRY, answer_check
from csi_conformance.harness.judging.answers import is_envelope, is_plain_error_body
from csi_conformance.harness.judging.violations import (
    ABSENT,
    closest_violations,
    followed_readings,
    reading_member,
    schema_document,
    violations_text,
    wrong_member,
    wrong_value,
)
from csi_conformance.schema import Contract
from csi_conformance.schema.validation import Validator

OBSERVE_PER_METHOD = 10
"""Answers per (method, ambiguity) the observer classifies; enough to see a reading, bounded in cost."""
STATED_ERROR_BODIES = {429: "7-R2", 500: "7-R3"}
"""HTTP statuses whose body §7 states (`{error: string}`), with the clause stating it."""
OBSERVED: MemoKey[dict[tuple, int]] = MemoKey("observed", dict)
"""Answers classified so far per (method, ambiguity): at most `OBSERVE_PER_METHOD` each."""
POINT_REFUSED: MemoKey[dict[tuple[str, str], Validator]] = MemoKey("schema.point-refused", dict)
"""A validator of a response in which one open point accepts nothing, by (definition, ambiguity)."""


def _known(ctx: CheckContext, answer: Answer) -> bool:
    return answer.method in ctx.contract.methods and answer.body is not None


ENVELOPE_CLAUSES = ("4.1-R6", "4.1-R7")
"""The JSON-RPC success wrapper and the `{context, value}` result: cited when the wrong member is theirs."""
PRIMITIVE = "2.1-"
"""Prefix of the §2.1 primitive formats (Pubkey, Hash, UnsignedInteger, Cursor, Signature, BN)."""


def _result_clauses(contract: Contract) -> tuple[str, ...]:
    """What a success answer can break, read from the contract: each method's row of §4.2 and every clause its
    response schema reaches (components, primitive formats, open points), the envelope's first."""
    found = {clause for method in contract.methods.values()
             for clause in (method.clause, *contract.clauses_in(f"{method.name}.response"))}
    return (*ENVELOPE_CLAUSES, *(clause for clause in contract.clauses if clause in found - set(ENVELOPE_CLAUSES)))


RESULT_CLAUSES = _result_clauses(REGISTRY.contract)


@answer_check("schema.result", clauses=RESULT_CLAUSES,
              description="A successful answer validates against the method's result schema")
def result(ctx: CheckContext, answer: Answer) -> None:
    if not _known(ctx, answer) or (is_envelope(ctx, answer) and "result" not in answer.body):
        return
    if is_plain_error_body(answer):
        return
    method = ctx.contract.method(answer.method)
    if ctx.contract.response_validator(answer.method, ctx.facts.readings).is_valid(answer.body):
        ctx.examined("answers")
        return
    problems = ctx.contract.response_validator(answer.method).violations(answer.body)
    if problems:  # wrong under every reading: the spec is broken
        document = schema_document(ctx, f"{answer.method}.response")
        found = closest_violations(ctx, document, problems, answer.body)
        path, received = wrong_member(found), wrong_value(found, answer.body)
        ctx.fail("Answer breaks the result schema", expected=violations_text(found), received=received,
                 answer=answer, clauses=_broken_clauses(ctx, method.clause, document, path, received is ABSENT),
                 path=path, kind=SchemaViolation)
    _pinned_readings(ctx, answer)


def _broken_clauses(ctx: CheckContext, row: str, document: dict, path: str, absent: bool) -> tuple[str, ...]:
    """What a schema finding cites: the method's row, the innermost §2 component the wrong member lies in
    (a TokenData member: 2.5-R1), and the primitive format or open point that is the member's own type (a
    string `amount`: 2.1-R3; a `state` in neither reading: 3.1-R1). The envelope's clauses only when the
    wrong member is the wrapper's or the result's own (`result`, `context`)."""
    parts = _parts(path)
    along = _clauses_along(ctx, document, parts[:-1] if absent else parts)
    cited = [clause for clause in dict.fromkeys(c for _, c in along) if clause in RESULT_CLAUSES
             and not ctx.contract.clauses[clause].silent]
    depth = len(parts)
    components = [c for c in cited if not c.startswith(PRIMITIVE) and c not in ENVELOPE_CLAUSES]
    own = [c for d, c in along if d == depth and c in cited and c not in ENVELOPE_CLAUSES and not absent]
    inner = [c for d, c in along if c in components and d < depth] or components
    chosen = [row, *inner[-1:], *own]
    if len(chosen) == 1:
        chosen += [c for c in cited if c in ENVELOPE_CLAUSES][-1:]
    return tuple(dict.fromkeys(chosen))


_PART = re.compile(r"\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]|\['((?:[^'\\]|\\.)*)'\]")


def _parts(path: str) -> list[str | int]:
    """The names and indices of a member's JSON path (`$.result.value.items[3].leafIndex`)."""
    return [int(index) if index else (name or quoted.replace("\\'", "'").replace("\\\\", "\\"))
            for name, index, quoted in _PART.findall(path[1:])]


def _clauses_along(ctx: CheckContext, document: dict, parts: list[str | int]) -> list[tuple[int, str]]:
    """(depth, clause) of every definition (`x-clause`) and open point passed on the way from the
    schema's root down to the member at `parts`, outermost first."""
    along: list[tuple[int, str]] = []
    nodes: list = [document]
    for depth in range(len(parts) + 1):
        nodes = _expanded(ctx, document["$defs"], nodes, depth, along)
        if depth < len(parts):
            nodes = [child for node in nodes for child in _children(node, parts[depth])]
    return along


def _expanded(ctx: CheckContext, defs: dict, nodes: list, depth: int, along: list[tuple[int, str]]) -> list[dict]:
    """The nodes and every schema they stand for (`$ref`, `allOf`, `anyOf`, `oneOf`), noting clauses met."""
    out, stack = [], list(nodes)
    while stack:
        node = stack.pop(0)
        if not isinstance(node, dict) or any(node is seen for seen in out):
            continue
        out.append(node)
        if "x-clause" in node:
            along.append((depth, node["x-clause"]))
        name = node.get("$ref", "")[len("#/$defs/"):]
        if name.startswith("ambiguity.") and "." not in name[len("ambiguity."):]:
            along.append((depth, ctx.contract.ambiguity(name[len("ambiguity."):]).clause))
        stack += [defs[name]] if name in defs else []
        stack += [branch for key in ("allOf", "anyOf", "oneOf") for branch in node.get(key, ())]
    return out


def _children(node: dict, part: str | int) -> list:
    if isinstance(part, int):
        return [node["items"]] if isinstance(node.get("items"), dict) else []
    child = node.get("properties", {}).get(part)
    return [child] if isinstance(child, dict) else []


def _pinned_readings(ctx: CheckContext, answer: Answer) -> None:
    """The answer is valid under some reading but not under the profile's pinned ones: say which."""
    definition = f"{answer.method}.response"
    clauses, broken, followed_by = [], {}, {}
    for amb_id in ctx.contract.ambiguities_in(definition):
        amb = ctx.contract.ambiguity(amb_id)
        pinned = ctx.facts.readings.get(amb_id)
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


@answer_check("schema.context-slot", clauses=("1-R1", "2.2-R1"), carries="Context",
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
                          "`{error: string}`",
              only_when="HTTP 429 or 500 answer, nor other failure outside JSON-RPC,")
def error_body(ctx: CheckContext, answer: Answer) -> None:
    exchange = answer.exchange
    flooded = exchange.error_kind == "rate-limited"  # the last 429 was read whole
    if (answer.status or 200) < 400 or (exchange.error and not flooded) or answer.error is not None:
        return
    if exchange.json is NOT_JSON or not is_plain_error_body(answer):
        stated = STATED_ERROR_BODIES.get(answer.status)
        # §7 states `{error: string}` for 429 and 500 only; it shows no status for the JSON-RPC error body and
        # says other statuses are "not shown", so any other status's body (a gateway's 502 page) is a convention.
        basis = Basis.SPEC if stated else Basis.JSON_RPC  # §7 states them for any request, a malformed one too
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
    seen = ctx.memo[OBSERVED]
    for amb_id in ctx.contract.ambiguities_in(definition):
        if seen.get((answer.method, amb_id), 0) >= OBSERVE_PER_METHOD:
            continue
        amb = ctx.contract.ambiguity(amb_id)
        followed = followed_by[amb_id] = followed_readings(ctx, answer, amb_id)
        if not followed:
            continue  # the answer breaks every reading: schema.result reports it
        if len(followed) == len(amb.readings):
            both = (answer.method, amb_id, "every reading")  # counted apart: they must not crowd out the others
            if seen.get(both, 0) < OBSERVE_PER_METHOD and _touches(ctx, answer, amb_id):
                seen[both] = seen.get(both, 0) + 1  # every reading accepts what it holds there: still evidence
                ctx.observe(amb_id, followed)
            continue
        seen[(answer.method, amb_id)] = seen.get((answer.method, amb_id), 0) + 1
        touched += 1
        ctx.observe(amb_id, followed)
        if amb.observed not in followed and not ctx.facts.profile.pin_observed:  # pinned: schema.result reports it
            unusual[amb_id] = amb.observed
    if unusual:
        first, observed = next(iter(unusual.items()))
        ctx.fail("Reading other than observed practice", expected=unusual,
                 received={amb_id: list(followed_by[amb_id]) for amb_id in unusual}, answer=answer, kind=ReadingFailure,
                 path=reading_member(ctx, first, observed, answer.body, definition, followed_by))
    ctx.examined("readings", touched)


def _touches(ctx: CheckContext, answer: Answer, amb_id: str) -> bool:
    """Whether an answer that every reading of a point accepts holds a value at the point at all. One
    reading may contain the other (any string, and base64 text), so an answer accepted by both may
    still show the point (a `tlv` that is base64), or not touch it (every `tlv` null): it shows it when
    a schema in which the point accepts nothing refuses more of the answer than the contract does."""
    definition = f"{answer.method}.response"
    refusing = ctx.memo[POINT_REFUSED]
    if (definition, amb_id) not in refusing:
        document = ctx.contract.schema_for(definition)
        document["$defs"][ctx.contract.ambiguity(amb_id).definition] = False
        refusing[(definition, amb_id)] = Validator(document)
    nothing = refusing[(definition, amb_id)]
    if nothing.is_valid(answer.body):
        return False
    contract = ctx.contract.response_validator(answer.method)
    if contract.is_valid(answer.body):
        return True
    return not {str(v) for v in nothing.violations(answer.body)} <= {str(v) for v in contract.violations(answer.body)}
