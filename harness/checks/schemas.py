"""Family `schema`: every answer validates against the contract, under the profile's readings.

The readings observer also lives here: for each ambiguity an answer can touch it records which
readings the answer is consistent with (the report always shows this), and a reading other than
the observed practice becomes a finding whose status the profile decides (AMBIGUOUS by default).
Under a profile that pins the observed readings (strict), an answer the spec allows but that
follows another reading is reported as exactly that, with basis AMBIGUITY, never as a broken spec.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from harness.checks.pages import shown
from harness.checks.support import is_envelope, is_plain_error_body
from harness.core.model import Basis
from harness.core.paths import BODY, from_pointer, member
from harness.core.registry import answer_check
from harness.engine.context import Answer, CheckContext
from harness.target import NOT_JSON
from schema import Ambiguity
from schema.validation import Validator, Violation

OBSERVE_PER_METHOD = 10
"""Answers per (method, ambiguity) the observer classifies; enough to see a reading, bounded in cost."""
SHOWN_VIOLATIONS = 5
"""Schema violations named per finding; the answer itself is in the finding's response."""
STATED_ERROR_BODIES = {429: "7-R2", 500: "7-R3"}
"""HTTP statuses whose body §7 states (`{error: string}`), with the clause stating it."""




def wrong_member(problems: Sequence[Violation]) -> str:
    """The JSON path of the member the deepest violation is about (the one `violations_text` shows first).

    A violation points at the object holding the fault; for a missing or unexpected member the
    member itself is the one to name (`$.result.compressionInfo`, not `$.result`)."""
    if not problems:
        return BODY
    problem = max(problems, key=lambda p: p.path.count("/"))
    named = _NAMED_MEMBER.search(problem.message)
    pointer = problem.path + ("/" + (named.group(1) or named.group(2)) if named else "")
    return from_pointer(pointer)


_NAMED_MEMBER = re.compile(r'^"([^"]+)" is a required property|\(\s*[\'"]([^\'"]+)[\'"] was unexpected')


def violations_text(problems: Sequence[Violation], limit: int = SHOWN_VIOLATIONS) -> str:
    """Violations by JSON path of the wrong member, deepest first, without echoing the answer."""
    by_path: dict[str, Violation] = {}
    for problem in sorted(problems, key=lambda p: -p.path.count("/")):
        by_path.setdefault(problem.path, problem)
    lines = [f"{path or '/'}: {_short(problem)}" for path, problem in by_path.items()]
    return "; ".join(lines[:limit]) + (f"; and {len(lines) - limit} more" if len(lines) > limit else "")


def closest_violations(ctx: CheckContext, document: dict, problems: Sequence[Violation], instance: Any,
                       depth: int = 0) -> list[Violation]:
    """Violations with each `anyOf`/`oneOf` failure replaced by those of its closest branch.

    The validator names only the node no branch accepts (`/result/value`); the wrong member is
    inside it (`/result/value/lamports`). The closest branch is the one with the fewest, then the
    deepest, violations, among the branches of the instance's own type. `document` is the schema the
    problems were found with.
    """
    out: list[Violation] = []
    for problem in problems:
        branches = _at(document, problem.schema_path)
        if depth >= MAX_DESCENT or not problem.schema_path.endswith(("/anyOf", "/oneOf")) or not isinstance(
                branches, list):
            out.append(problem)
            continue
        sub = _at(instance, problem.path)
        tried = [(_branch_validator(ctx, document, problem.schema_path, index, branch).violations(sub), branch)
                 for index, branch in enumerate(branches)]
        found, branch = min(tried, key=lambda pair: _distance(pair[0]))
        inner = closest_violations(ctx, {"$defs": document.get("$defs", {}), **branch}, found, sub, depth + 1)
        out += [Violation(problem.path + v.path, v.schema_path, v.message) for v in inner] or [problem]
    return out


def _distance(found: Sequence[Violation]) -> tuple[bool, int, int]:
    """How far an instance is from a branch: a branch of another type (`null` for an object) is farthest,
    then more violations, then shallower ones."""
    other_type = any(not v.path and " is not of type " in v.message for v in found)
    return other_type, len(found), -max((v.path.count("/") for v in found), default=0)


MAX_DESCENT = 6
"""Nested `anyOf` levels followed when naming the wrong member."""


def schema_document(ctx: CheckContext, definition: str) -> dict:
    """The whole schema of a definition under every reading, built once per run (`closest_violations`)."""
    documents = ctx.cache.setdefault("schema.documents", {})
    if definition not in documents:
        documents[definition] = ctx.contract.schema_for(definition)
    return documents[definition]


def followed_readings(ctx: CheckContext, answer: Answer, amb_id: str) -> tuple[str, ...]:
    """The readings of one ambiguity an answer follows, read as its method's response: worked out once
    for the answer, which schema.result and schema.ambiguity-readings both ask."""
    return answer.derived(("readings", amb_id), lambda: ctx.contract.readings_followed(
        amb_id, answer.body, f"{answer.method}.response"))


def reading_member(ctx: CheckContext, amb_id: str, reading: str, instance: Any, definition: str,
                   followed: Mapping[str, tuple[str, ...]]) -> str:
    """Where `instance` departs from one reading of an ambiguity: the member a reading finding names.

    Every other ambiguity is pinned to the readings the answer follows (`followed`, as far as the
    caller already knows them), so the only violations left are this reading's, at the member
    itself rather than at an `anyOf` of readings above it.
    """
    readings: dict[str, list[str]] = {}
    for other in ctx.contract.ambiguities_in(definition):
        names = followed[other] if other in followed else ctx.contract.readings_followed(other, instance, definition)
        if other != amb_id and names:
            readings[other] = list(names)
    readings[amb_id] = [reading]
    documents = ctx.cache.setdefault("schema.reading-documents", {})
    key = (definition, tuple(sorted((name, tuple(names)) for name, names in readings.items())))
    if key not in documents:
        documents[key] = ctx.contract.schema_for(definition, readings)
    problems = ctx.contract.validator(definition, readings).violations(instance)
    return wrong_member(closest_violations(ctx, documents[key], problems, instance))


def _at(node: Any, pointer: str) -> Any:
    """The part of a JSON document a JSON pointer names; None when there is none."""
    for part in [p.replace("~1", "/").replace("~0", "~") for p in pointer.split("/")[1:]]:
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return None
    return node


def _branch_validator(ctx: CheckContext, document: dict, schema_path: str, index: int, branch: Any) -> Validator:
    cache = ctx.cache.setdefault("schema.branches", {})
    key = (id(document.get("$defs")), schema_path, index)
    if key not in cache:
        schema = {"$defs": document.get("$defs", {}), **branch} if isinstance(branch, dict) else branch
        cache[key] = Validator(schema)
    return cache[key]


def _short(problem: Violation) -> str:
    """A violation message without a long instance at its head (jsonschema-rs quotes it whole: up to 1 KB)."""
    message = problem.message
    for marker in (" is not valid under any of the schemas", " is not of type", " is not one of", " does not match",
                   " is a required property", " is less than", " is greater than", " was expected",
                   " should not be valid", " is too long", " is too short", " has less than", " has more than",
                   " is not a "):
        head, found, tail = message.partition(marker)
        if found:
            return f"{head if len(head) <= 80 else 'the value'}{found}{tail}"
    return message if len(message) <= 200 else message[:200] + "…"


def reading_note(ctx: CheckContext, amb: Ambiguity, followed: Sequence[str]) -> str:
    """What a reading finding says: which reading the answer follows, and what the profile makes of it."""
    readings = "/".join(f"`{name}`" for name in followed) or "none of the readings"
    if ctx.profile.pin_observed:
        return (f"{ctx.profile.name} pins the observed reading `{amb.observed}` of ambiguity `{amb.id}`; "
                f"the answer follows {readings}")
    return (f"ambiguity `{amb.id}`: the spec allows every reading; the answer follows {readings} "
            f"(observed practice: `{amb.observed}`)")


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
        ctx.fail("Answer breaks the result schema", expected=f"a {answer.method} answer as the contract describes",
                 received=violations_text(found), answer=answer, clauses=(method.clause, "4.1-R6", "4.1-R7"),
                 path=wrong_member(found))
    _pinned_readings(ctx, answer)


def _pinned_readings(ctx: CheckContext, answer: Answer) -> None:
    """The answer is valid under some reading but not under the profile's pinned ones: say which."""
    definition = f"{answer.method}.response"
    notes, clauses, broken, followed_by = [], [], [], {}
    for amb_id in ctx.contract.ambiguities_in(definition):
        amb = ctx.contract.ambiguity(amb_id)
        pinned = ctx.readings.get(amb_id)
        followed = followed_by[amb_id] = followed_readings(ctx, answer, amb_id)
        if pinned and not set(pinned) & set(followed):
            notes.append(reading_note(ctx, amb, followed))
            clauses.append(amb.clause)
            broken.append((amb_id, pinned[0]))
    if notes:
        first, reading = broken[0]
        ctx.fail("Reading other than the pinned one", expected="the readings the profile pins",
                 received="; ".join(notes), answer=answer, basis=Basis.AMBIGUITY, clauses=tuple(clauses),
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
        received = "no `context`" if context is None else f"/result/context/slot is {shown(slot)}"
        ctx.fail("No context slot", expected="/result/context/slot, a non-negative integer", received=received,
                 answer=answer, path=member("result", "context") if context is None else member("result", "context",
                                                                                              "slot"))
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
        json_body = exchange.json is not NOT_JSON
        # §7 states `{error: string}` for 429 and 500 only; it shows no status for the JSON-RPC error body and
        # says other statuses are "not shown", so any other status's body (a gateway's 502 page) is a convention.
        basis = Basis.SPEC if stated else Basis.JSON_RPC
        if answer.method not in ctx.contract.methods:
            basis = Basis.JSON_RPC  # an operation the spec does not have: nothing it states applies
        text = shown(exchange.json) if json_body else f"not JSON ({exchange.json_error}): " + shown(
            exchange.body[:200].decode("utf-8", "replace"))
        ctx.fail(f"Malformed HTTP {answer.status} body", expected="{error: string}" if stated else
                 "{error: string} or a JSON-RPC error object (§7)", received=text, answer=answer, basis=basis,
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
    unusual, touched, unusual_ids, followed_by = [], 0, [], {}
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
            unusual.append(reading_note(ctx, amb, followed))
            unusual_ids.append(amb_id)
    if unusual:
        first = ctx.contract.ambiguity(unusual_ids[0])
        ctx.fail("Reading other than observed practice", expected="any reading (the spec allows each)",
                 received="; ".join(unusual), answer=answer,
                 path=reading_member(ctx, first.id, first.observed, answer.body, definition, followed_by))
    ctx.examined("readings", touched)
