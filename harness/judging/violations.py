"""Schema violations named for a vendor, and the readings of ambiguities an answer follows.

The validator names only the node no branch of an `anyOf` accepts; a vendor needs the member that
is wrong. These helpers follow the closest branch down to it, and pin every other ambiguity to the
reading an answer follows so that a reading finding names the member itself.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from csi_conformance.harness.context import Answer, CheckContext, MemoKey
from csi_conformance.harness.core.paths import BODY, from_pointer
from csi_conformance.schema.validation import Validator, Violation

__all__ = ["ABSENT", "closest_violations", "followed_readings", "reading_member", "schema_document",
           "violations_text", "wrong_member", "wrong_value"]

SHOWN_VIOLATIONS = 5
"""Schema violations named per finding; the answer itself is in the finding's response."""


def wrong_member(problems: Sequence[Violation]) -> str:
    """The JSON path of the member the deepest violation is about (the one `violations_text` shows first).

    A violation points at the object holding the fault; for a missing or unexpected member the
    member itself is the one to name (`$.result.compressionInfo`, not `$.result`)."""
    return from_pointer(_wrong_pointer(problems)) if problems else BODY


def wrong_value(problems: Sequence[Violation], instance: Any) -> Any:
    """What `instance` holds at the member `wrong_member` names: a finding's `received`; `ABSENT` (words)
    for a required member that is missing."""
    if not problems:
        return instance
    pointer = _wrong_pointer(problems)
    parent, _, name = pointer.rpartition("/")
    holder = _at(instance, parent)
    if isinstance(holder, dict) and name.replace("~1", "/").replace("~0", "~") not in holder:
        return ABSENT
    return _at(instance, pointer)


ABSENT = "absent: no such member"
"""A schema finding's `received` when the member the schema requires is not there at all."""


def _wrong_pointer(problems: Sequence[Violation]) -> str:
    problem = max(problems, key=lambda p: p.path.count("/"))
    named = _NAMED_MEMBER.search(problem.message)
    return problem.path + ("/" + (named.group(1) or named.group(2)) if named else "")


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


DOCUMENTS: MemoKey[dict[str, dict]] = MemoKey("schema.documents", dict)
"""The whole schema of each definition under every reading (`schema_document`)."""
READING_DOCUMENTS: MemoKey[dict[tuple, dict]] = MemoKey("schema.reading-documents", dict)
"""The schema of a definition with each open point pinned to some readings (`reading_member`)."""
BRANCHES: MemoKey[dict[tuple, Validator]] = MemoKey("schema.branches", dict)
"""A validator of each `anyOf` branch followed when naming the wrong member."""

MAX_DESCENT = 6
"""Nested `anyOf` levels followed when naming the wrong member."""


def schema_document(ctx: CheckContext, definition: str) -> dict:
    """The whole schema of a definition under every reading, built once per run (`closest_violations`)."""
    documents = ctx.memo[DOCUMENTS]
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
    documents = ctx.memo[READING_DOCUMENTS]
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
    cache = ctx.memo[BRANCHES]
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
