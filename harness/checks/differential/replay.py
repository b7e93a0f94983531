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
| in a member governed by a point the target    | ambiguity                                          |
| reads otherwise, where no normalizer brings   |                                                    |
| its reading to the reference's                |                                                    |

A reading never hides a value: the reading normalizers first bring both answers to one reading
(§2.10 integer roots to base58, treeInfos to merkleTrees, a numeric token state to its name …),
and whatever differs after that is a difference of value with the caller's basis. Only the
members a point governs (`Ambiguity.governs`, from the contract) can rest on it, and a point of the request (a case's
tag) explains only a different kind of answer. A case tagged with an ambiguity counts it as open
unless both answers are seen to follow one same reading of it.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from csi_conformance.harness.checks.differential.normalize import (
    ALLOWED,
    NORMALIZERS,
    READINGS,
    blank_tree_history,
    comparable,
    normalize,
)
from csi_conformance.harness.checks.differential.optional import NAME as OPTIONAL
from csi_conformance.harness.checks.differential.optional import settle
from csi_conformance.harness.checks.differential.readings import ACCEPTED, set_aside
from csi_conformance.harness.connection import NOT_JSON, OMIT
from csi_conformance.harness.context import Answer, CheckContext, describe
from csi_conformance.harness.core.failures import DifferenceFailure, Skip
from csi_conformance.harness.core.model import Basis
from csi_conformance.harness.judging.compare import Difference, differences, json_path, sides
from csi_conformance.harness.judging.pages import partly
from csi_conformance.schema import Contract, Method

__all__ = ["ANSWER", "CODE", "MAX_PAGES", "OUTCOME", "Replay", "Side", "answered", "ask", "judge", "outcome",
           "reading_gaps", "reference_items", "send_both", "walk"]

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
    params = payload.get("params") if isinstance(payload, dict) else None
    reference = Answer(method, params, ctx.send_reference(payload))
    target = Answer(method, params, ctx.send(payload))
    return Replay(method, Side(target, target.body), Side(reference, reference.body))


def walk(ctx: CheckContext, method: Method, params: dict, *, id: Any) -> Replay:
    """Both sides from the first page to the end, each with its own cursors (2.1-R4)."""
    start = {key: value for key, value in params.items() if key != method.pagination.cursor}
    reference = _walk(lambda p: ctx.ask_reference(method.name, p, id=id), method, start, "reference")
    target = _walk(lambda p: ctx.call(method.name, p, id=id), method, start, "target")
    return Replay(method.name, target, reference)


def reference_items(ctx: CheckContext, method: Method, params: dict) -> list:
    """Every item of the reference's list for `params` (empty when it answers no list)."""
    side = _walk(lambda p: ctx.ask_reference(method.name, p, id="csi-diff-list"), method, params, "reference")
    result = side.body.get("result") if isinstance(side.body, dict) else None
    value = result.get("value") if isinstance(result, dict) else None
    items = value.get(method.pagination.items) if isinstance(value, dict) else None
    return items if isinstance(items, list) else []


def _walk(call: Callable[[dict], Answer], method: Method, params: dict, side: str) -> Side:
    """One side's list from the first page to the end. A method whose cursor the spec does not
    show (ambiguity latest-nonvoting-cursor) is read on its first page only: a cursor there is a
    reading, and following it would turn the reading into a difference of items."""
    cursor_key, items_key = method.pagination.cursor, method.pagination.items
    first: Answer | None = None
    items: list = []
    cursor = None
    last = MAX_PAGES if method.pagination.cursor_shown else 1
    for page in range(1, last + 1):
        answer = call(params if cursor is None else {**params, cursor_key: cursor})
        first = first or answer
        value = answer.value
        batch = value.get(items_key) if isinstance(value, dict) else None
        if not isinstance(batch, list):
            return Side(answer, answer.body, page)  # an error or an odd page: that answer is compared
        items += batch
        cursor = value.get(cursor_key)
        if cursor is None or not batch or page == last:
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
          ambiguity: str | None = None) -> list[DifferenceFailure]:
    """The differences between the two sides after the normalizers, as failures; empty when equal.

    Differences in members governed by a point the target reads otherwise than the reference
    (one no normalizer could bring to the reference's reading) rest on that ambiguity; every
    other difference keeps `basis`: a reading never hides a value. `Skip` when a side gave no
    JSON answer: the reference's fault is not the target's, and the target's is reported by the
    transport and envelope families.
    """
    answered(replay)
    contract = ctx.contract
    t_read, t_applied = normalize(contract, replay.method, replay.target.body, READINGS)
    r_read, r_applied = normalize(contract, replay.method, replay.reference.body, READINGS)
    t_norm, t_allowed = _normalized(contract, replay.method, t_read)
    r_norm, r_allowed = _normalized(contract, replay.method, r_read)
    if settle(contract, replay.method, t_norm, r_norm):
        t_allowed += (OPTIONAL,)
    _without_partial_history(ctx, replay.method, t_norm, r_norm)
    found = differences(t_norm, r_norm)
    if replay.target.pages > 1 or replay.reference.pages > 1:
        ctx.examined("pages", replay.target.pages)
    found, read_otherwise = set_aside(contract, replay.method, ctx.facts.readings, found, BRIDGED)
    if not found:
        return []
    gaps = reading_gaps(contract, replay.method, t_read, r_read, ambiguity)
    outcome_differs = set(t_norm) != set(r_norm)
    explained = [d for d in found if _explained(contract, d, gaps, outcome_differs)]
    values = [d for d in found if not _explained(contract, d, gaps, outcome_differs)]
    applied = set(t_applied + r_applied + t_allowed + r_allowed) | {f"{ACCEPTED}:{a}" for a in read_otherwise}
    failures = []
    for part, open_points in ((values, []), (explained, gaps)):
        if part:
            title, cited = _classify(part, t_norm, r_norm, clauses)
            rests = Basis.AMBIGUITY if open_points and title != CODE else Basis.OBSERVED if title == CODE else basis
            failures.append(_failure(replay, title, rests, cited, part, open_points, applied))
    return failures


def _failure(replay: Replay, title: str, basis: Basis, clauses: tuple[str, ...], found: list[Difference],
             gaps: list[str], applied: set[str]) -> DifferenceFailure:
    walked = replay.target.pages > 1 or replay.reference.pages > 1
    reference_side, target_side = sides(found)
    return DifferenceFailure(
        title, reference=replay.reference.body, response=replay.target.body if walked else None, basis=basis,
        answer=replay.target.answer, method=replay.method, clauses=clauses, expected=reference_side,
        received=target_side, path=json_path(found), allowed=_allowed(applied), open_points=tuple(gaps),
        differences=len(found),
        pages=(replay.target.pages, replay.reference.pages) if walked else None)


def _explained(contract: Contract, difference: Difference, gaps: list[str], outcome_differs: bool) -> bool:
    """Whether a difference rests on one of the open points: in a member the point governs, or, for
    a point of the request or of the whole response, a different kind of answer altogether."""
    members = {_INDEX.sub("", part) for part in difference.path.split(".")[1:]}
    for amb_id in gaps:
        governed = contract.ambiguity(amb_id).governs or frozenset()
        if (not governed and outcome_differs) or members & governed:
            return True
    return False


_INDEX = re.compile(r"\[\+?\d+\]")
BRIDGED = frozenset(n.ambiguity for n in READINGS if n.ambiguity)
"""Points a reading normalizer brings to one reading: what differs there after it is a value."""


def _without_partial_history(ctx: CheckContext, method: str, target: dict, reference: dict) -> None:
    """A tree the reference saw only part of (a slice from mid-chain) has no true roots there: what its history
    decides is not compared, on either side, and the check says so."""
    trees = ctx.facts.reference_partial_trees
    blanked = blank_tree_history(method, target, trees) | blank_tree_history(method, reference, trees)
    for tree in sorted(blanked):
        partly(ctx, f"roots of tree {tree} not compared: the reference's ledger holds only part of its history "
                    "(a slice that starts mid-chain)")


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


def _allowed(applied: set[str]) -> tuple[str, ...]:
    """The allowed differences applied to either side, in the order `NORMALIZERS` lists them, then optional members
    settled."""
    accepted = tuple(sorted(name for name in applied if name.startswith(f"{ACCEPTED}:")))
    return tuple(n.name for n in NORMALIZERS if n.name in applied) + ((OPTIONAL,) if OPTIONAL in applied else ()) \
        + accepted


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

