"""Put the same request to the target and the reference, and judge the difference.

Cursors are opaque (2.1-R4): a list is walked from its first page to the end on each side,
with each side's own cursors, and the items of all pages are compared, never the cursor
strings. What a difference rests on decides its basis:

| difference                                    | basis                                              |
|-----------------------------------------------|----------------------------------------------------|
| values (a balance, a page, a hash)            | the caller's: spec for generated requests, and for |
|                                               | cases that cite a clause the spec states           |
| a result on one side, an error on the other   | the caller's                                       |
| only `error.code`                             | observed practice: codes are not shown (7-R5)      |
| any, where the target follows another reading | ambiguity                                          |
| of an ambiguity the answer touches            |                                                    |

A case tagged with an ambiguity never fails on it: its differences rest on the ambiguity
unless both answers are seen to follow one same reading of it.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from harness.core.failures import Skip
from harness.core.model import Basis
from harness.differential.compare import differences, render
from harness.differential.normalize import ALLOWED, NORMALIZERS, READINGS, comparable, normalize
from harness.engine.context import Answer, CheckContext, DifferenceFailure, describe
from harness.target import NOT_JSON, OMIT
from schema import Contract, Method

__all__ = ["ANSWER", "CODE", "MAX_PAGES", "OUTCOME", "Replay", "Side", "answered", "ask", "judge", "outcome",
           "reading_gaps", "send_both", "walk"]

MAX_PAGES = 50
"""Pages walked per list and side; a list with no end in reach is not compared (pagination reports it)."""

OUTCOME = "Outcome differs from the reference"
CODE = "Error code differs from the reference"
ANSWER = "Answer differs from the reference"


@dataclass(frozen=True)
class Side:
    """What one side answered: its first answer (shown, with its curl), and the body compared."""

    answer: Answer
    body: Any
    pages: int = 1


@dataclass(frozen=True)
class Replay:
    """One request as both sides answered it."""

    method: str
    target: Side
    reference: Side


def ask(ctx: CheckContext, method: str, params: Any = OMIT, *, id: Any) -> Replay:
    """The same JSON-RPC request to both; the target's answer is judged by the answer checks too."""
    reference = ctx.ask_reference(method, params, id=id)
    target = ctx.call(method, params, id=id)
    return Replay(method, Side(target, target.body), Side(reference, reference.body))


def send_both(ctx: CheckContext, payload: Any, method: str) -> Replay:
    """A raw request (a batch, an odd envelope) to both, as it is."""
    if ctx.reference is None:
        raise Skip("no reference: give --scenario to compare with the reference server")
    params = payload.get("params") if isinstance(payload, dict) else None
    reference = Answer(method, params, ctx.reference.send(payload))
    target = Answer(method, params, ctx.send(payload))
    return Replay(method, Side(target, target.body), Side(reference, reference.body))


def walk(ctx: CheckContext, method: Method, params: dict, *, id: Any) -> Replay:
    """Both sides from the first page to the end, each with its own cursors (2.1-R4)."""
    start = {key: value for key, value in params.items() if key != method.pagination.cursor}
    reference = _walk(lambda p: ctx.ask_reference(method.name, p, id=id), method, start, "reference")
    target = _walk(lambda p: ctx.call(method.name, p, id=id), method, start, "target")
    return Replay(method.name, target, reference)


def _walk(call: Callable[[dict], Answer], method: Method, params: dict, side: str) -> Side:
    cursor_key, items_key = method.pagination.cursor, method.pagination.items
    first: Answer | None = None
    items: list = []
    cursor = None
    for page in range(1, MAX_PAGES + 1):
        answer = call(params if cursor is None else {**params, cursor_key: cursor})
        first = first or answer
        value = answer.value
        batch = value.get(items_key) if isinstance(value, dict) else None
        if not isinstance(batch, list):
            return Side(answer, answer.body, page)  # an error or an odd page: that answer is compared
        items += batch
        cursor = value.get(cursor_key)
        if cursor is None or not batch:
            merged = copy.deepcopy(first.body)
            merged["result"]["value"][items_key] = items
            return Side(first, merged, page)
    raise Skip(f"{method.name}: the {side}'s list has no end within {MAX_PAGES} pages")


def outcome(answer: Answer) -> str:
    """`result`, `error`, `failure` (plain `{error}` body), `batch`, `other`, or `none` (no JSON answer)."""
    exchange = answer.exchange
    if exchange.error or (exchange.json is NOT_JSON and (exchange.body or (exchange.status or 0) >= 300)):
        return "none"
    return next(iter(comparable(answer.body)))


def answered(replay: Replay) -> None:
    """`Skip` unless both sides gave an answer that can be compared."""
    if outcome(replay.reference.answer) == "none":
        raise Skip(f"the reference gave no answer: {describe(replay.reference.answer)}")
    if outcome(replay.target.answer) == "none":
        raise Skip("the target gave no JSON answer (reported by the transport and envelope families)")


def judge(ctx: CheckContext, replay: Replay, *, basis: Basis, clauses: tuple[str, ...],
          ambiguity: str | None = None) -> DifferenceFailure | None:
    """The difference between the two sides after the normalizers, as a failure; None when equal.

    `Skip` when a side gave no JSON answer: the reference's fault is not the target's, and the
    target's is reported by the transport and envelope families.
    """
    answered(replay)
    target, reference = replay.target, replay.reference
    contract = ctx.contract
    t_read, t_applied = normalize(contract, replay.method, target.body, READINGS)
    r_read, r_applied = normalize(contract, replay.method, reference.body, READINGS)
    t_norm, t_allowed = _normalized(contract, replay.method, t_read)
    r_norm, r_allowed = _normalized(contract, replay.method, r_read)
    found = differences(t_norm, r_norm)
    if not found:
        return None
    title, clauses = _classify(found, t_norm, r_norm, clauses)
    basis = Basis.OBSERVED if title == CODE else basis
    gaps = reading_gaps(contract, replay.method, t_read, r_read, ambiguity)
    if gaps and title != CODE:
        basis = Basis.AMBIGUITY
    applied = set(t_applied + r_applied + t_allowed + r_allowed)
    walked = target.pages > 1 or reference.pages > 1
    return DifferenceFailure(
        title, reference=reference.body, response=target.body if walked else None, basis=basis,
        answer=target.answer, method=replay.method, clauses=clauses,
        expected="the reference's answer" + _allowed_line(applied),
        received=_received(found, replay, gaps),
    )


def _normalized(contract: Contract, method: str, value: dict) -> tuple[dict, tuple[str, ...]]:
    """Apply the allowed differences to a comparable already brought to the observed readings."""
    value = copy.deepcopy(value)
    return value, tuple(n.name for n in ALLOWED if n.rewrite(contract, method, value))


def _classify(found: list, target: dict, reference: dict, clauses: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
    if set(target) != set(reference):
        return OUTCOME, clauses
    if all(d.path == "error.code" for d in found):
        return CODE, ("7-R5",)
    return ANSWER, clauses


def _allowed_line(applied: set[str]) -> str:
    names = [n.name for n in NORMALIZERS if n.name in applied]
    return f" up to the allowed differences ({', '.join(names)})" if names else " (no allowed difference applied)"


def _received(found: list, replay: Replay, gaps: list[str]) -> str:
    lines = [f"{len(found)} difference(s), target | reference:", render(found)]
    if replay.target.pages > 1 or replay.reference.pages > 1:
        lines.append(f"(pages walked: target {replay.target.pages}, reference {replay.reference.pages})")
    if gaps:
        lines.append(f"open point(s) {', '.join(gaps)}: the target is not seen to follow the reference's reading, "
                     "so the difference rests on the ambiguity (see `csi ambiguities`)")
    return "\n".join(lines)


def reading_gaps(contract: Contract, method: str, target: dict, reference: dict, ambiguity: str | None) -> list[str]:
    """Ambiguities where the target's answer follows no reading the reference's follows.

    `ambiguity` (a case's tag) counts as a gap unless both answers are seen to follow one same
    reading of it: a point the answers cannot show, such as a params reading, is given the
    benefit of the doubt.
    """
    known = method in contract.methods
    definition = f"{method}.response"
    ids = list(contract.ambiguities_in(definition)) if known else []
    if ambiguity and ambiguity not in ids:
        ids.append(ambiguity)
    t_body, r_body = _as_response(target), _as_response(reference)
    gaps = []
    for amb_id in ids:
        amb = contract.ambiguity(amb_id)
        touched = shared = False
        if known and amb.subject in ("value", "response"):
            t = set(contract.readings_followed(amb_id, t_body, definition))
            r = set(contract.readings_followed(amb_id, r_body, definition))
            touched = all(0 < len(s) < len(amb.readings) for s in (t, r))
            shared = bool(t & r)
        if (touched and not shared) or (amb_id == ambiguity and not (touched and shared)):
            gaps.append(amb_id)
    return gaps


def _as_response(value: dict) -> Any:
    """A comparable back as the body it came from, so the contract can tell which reading it follows."""
    if "result" in value or "error" in value:
        return {"jsonrpc": "2.0", "id": "csi", **value}
    return value.get("other")

