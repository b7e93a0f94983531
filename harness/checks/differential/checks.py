"""Family `differential`: the target's answers against the reference's, over the same scenario.

With `csi run --scenario NAME|FILE` the target has loaded the scenario and a reference server
holds it too; the same requests go to both and the answers are compared after the normalizers
of `harness.checks.differential.normalize`. A vendor learns not only that an answer is well formed but
that it is right. Without `--scenario` there is nothing to compare with, and both checks SKIP.

Each check counts what it compared (`cases`, `requests`, and the `pages` of walked lists); a
reading the target follows never hides a value (`harness.checks.differential.replay.judge`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from csi_conformance.cases.invariants import check_invariant
from csi_conformance.cases.loader import scenario_cases
from csi_conformance.harness.checks.differential.normalize import READINGS, normalize
from csi_conformance.harness.checks.differential.replay import (
    OUTCOME,
    Replay,
    Side,
    answered,
    ask,
    judge,
    outcome,
    reading_gaps,
    send_both,
    walk,
)
from csi_conformance.harness.checks.differential.requests import generated_params
from csi_conformance.harness.connection import OMIT
from csi_conformance.harness.context import Answer, CheckContext, answer_value
from csi_conformance.harness.core.failures import CheckFailure, DifferenceFailure, NotApplicable, SchemaViolation, Skip
from csi_conformance.harness.core.model import Basis
from csi_conformance.harness.core.registry import check
from csi_conformance.harness.judging.answers import outcome_path
from csi_conformance.harness.judging.compare import differences
from csi_conformance.harness.judging.violations import violations_text, wrong_member, wrong_value
from csi_conformance.schema import Method

__all__ = ["case_basis", "each", "generated", "observe_tag", "replay_cases"]

METHOD_ROWS = tuple(f"4.2-M{row}" for row in range(1, 20))
ENVELOPE = frozenset({"jsonrpc", "id", "method", "params"})


# -- cases ------------------------------------------------------------------------------------
@check("differential.cases", clauses=(*METHOD_ROWS, "2.1-R4"),
       description="Every golden case of the scenario, replayed against target and reference: the same answer "
                   "(mode exact), a valid one of the same kind (schema), or the case's invariant")
def replay_cases(ctx: CheckContext) -> None:
    """Each case's answer must be the reference's live answer (exact), valid (schema) or keep the
    invariant; §4.2 states what each method answers. Fails when a case's answers differ."""
    stale: list[str] = []
    try:
        each(ctx, _scenario_cases(ctx), lambda case: _replay_case(ctx, case, stale), lambda case: case.name,
             kind="cases", method=lambda case: case.method)
    finally:
        if stale:
            ctx.note(f"{len(stale)} case(s) recorded an answer the live reference no longer gives "
                     f"({', '.join(stale[:5])}{', …' if len(stale) > 5 else ''}): run `csi cases fill`")


def each(ctx: CheckContext, items: Iterable[Any], judge_one: Callable[[Any], list[CheckFailure]],
         name: Callable[[Any], str], *, kind: str, method: Callable[[Any], str | None]) -> None:
    """Judge every item, recording each failure without stopping and counting each item judged as
    one `kind` examined; `Skip` only when nothing could be judged. A run that stopped asking the
    target, or spent its budget, ends the loop at once."""
    skipped, judged = [], 0
    for item in items:
        try:
            failures = judge_one(item)
        except Skip as skip:
            if ctx.stopped or ctx.out_of_requests:
                raise
            skipped.append(f"{name(item)}: {skip.reason}")
            continue
        judged += 1
        ctx.examined(kind, method=method(item))
        for failure in failures:
            ctx.defer(failure)
    if not judged:
        raise Skip("; ".join(skipped[:3]) or "nothing to compare")


def _scenario_cases(ctx: CheckContext) -> list:
    if not ctx.has_reference:
        raise NotApplicable("no reference to compare with: the scenario differential needs --scenario (or a ledger)")
    chosen = list(ctx.facts.cases) if ctx.facts.cases is not None else scenario_cases(ctx.facts.scenario)
    if not chosen:
        raise NotApplicable(f"golden cases are written over the bundled scenarios; {ctx.facts.scenario} has none "
                            "(differential.generated compares it)")
    return chosen


def _replay_case(ctx: CheckContext, case: Any, stale: list[str]) -> list[CheckFailure]:
    replay, exact = _replay(ctx, case.request, case.method)
    if case.ambiguity:
        observe_tag(ctx, case, replay)
    basis = case_basis(ctx, case)
    clauses = tuple(c for c in case.clauses if c in ctx.contract.clauses)
    if case.mode == "exact":
        if case.response is not None and _differs(ctx, case.method, case.response, exact.body):
            stale.append(case.name)
        return judge(ctx, replay, basis=basis, clauses=clauses, ambiguity=case.ambiguity)
    failures = judge_outcome(ctx, replay, basis=basis, clauses=clauses, ambiguity=case.ambiguity)
    kinds = {outcome(replay.target.answer), outcome(replay.reference.answer)}
    if not failures and case.mode == "schema":
        failures = _schema(ctx, replay.target.answer, clauses)
        if case.ambiguity and kinds == {"result"}:
            # the point is open, not the values: once both readings are brought to one, they must match
            failures += judge(ctx, replay, basis=basis, clauses=clauses, ambiguity=case.ambiguity)
    elif not failures and case.invariant:
        failures = _invariant(ctx, case, replay, basis, clauses)
    if not failures and kinds == {"error"}:
        # the case asks only for an error; the code is still worth knowing, as observed practice (7-R5)
        failures = judge(ctx, replay, basis=Basis.OBSERVED, clauses=clauses, ambiguity=case.ambiguity)
    return failures


def observe_tag(ctx: CheckContext, case: Any, replay: Replay) -> None:
    """Record the reading the target follows on a point of the request a case is tagged with (a params
    shape, an id), which no answer check sees: a target that answers follows a reading under which the
    request is valid; one that refuses it while the reference answers, another reading.

    The answer's own points are recorded on every answer (schema.ambiguity-readings, envelope.error-object),
    and so is an id answered (envelope.id-echoed): recording them here again would count one answer twice.
    """
    contract, method, target = ctx.contract, case.method, replay.target.answer
    amb = contract.ambiguity(case.ambiguity)
    if method not in contract.methods or amb.subject not in ("value", "response"):
        return  # an HTTP status or an exchange: the transport family records those on every answer
    if amb.id in contract.ambiguities_in(f"{method}.response") or amb.id in contract.ambiguities_in("Error"):
        return
    kind = outcome(target)
    valid = contract.readings_followed(amb.id, case.request, f"{method}.request")
    if kind == "result" and valid and amb.id not in ANSWERED_IDS:
        ctx.observe(amb.id, valid)
    elif kind == "error" and outcome(replay.reference.answer) == "result":
        ctx.observe(amb.id, tuple(name for name in amb.readings if name not in valid))


ANSWERED_IDS = ("request-id",)
"""Request points an answer check records whenever the target answers (envelope.id-echoed)."""


def _replay(ctx: CheckContext, request: Any, method_name: str) -> tuple[Replay, Answer]:
    """Both sides' answers to a case request, and the reference's answer to the request exactly as
    recorded. A list the reference answers is walked from its first page on each side, since the
    recorded cursor is the reference's own and means nothing to the target."""
    if not (isinstance(request, dict) and set(request) <= ENVELOPE and request.get("jsonrpc") == "2.0"
            and "id" in request and isinstance(request.get("method"), str)):
        replay = send_both(ctx, request, method_name)
        return replay, replay.reference.answer
    method, params, request_id = request["method"], request.get("params", OMIT), request["id"]
    known = ctx.contract.methods.get(method)
    if known is None or known.pagination is None or not isinstance(params, dict):
        replay = ask(ctx, method, params, id=request_id)
        return replay, replay.reference.answer
    exact = ctx.ask_reference(method, params, id=request_id)
    value = exact.value
    if isinstance(value, dict) and isinstance(value.get(known.pagination.items), list):
        return walk(ctx, known, params, id=request_id), exact
    target = ctx.call(method, params, id=request_id)
    return Replay(method, Side(target, target.body), Side(exact, exact.body)), exact


def _differs(ctx: CheckContext, method: str, recorded: Any, live: Any) -> bool:
    return bool(differences(normalize(ctx.contract, method, recorded)[0], normalize(ctx.contract, method, live)[0]))


def case_basis(ctx: CheckContext, case: Any) -> Basis:
    """A case rests on the spec when it cites a clause the spec states; one that cites only
    silences (an `S` clause, or a "not shown") rests on observed practice."""
    clauses = [ctx.contract.clauses[c] for c in case.clauses if c in ctx.contract.clauses]
    return Basis.SPEC if any(not clause.silent for clause in clauses) else Basis.OBSERVED


def judge_outcome(ctx: CheckContext, replay: Replay, *, basis: Basis, clauses: tuple[str, ...],
                  ambiguity: str | None) -> list[CheckFailure]:
    """For schema and invariant cases: only the kind of answer (result or error) must match."""
    answered(replay)
    target, reference = outcome(replay.target.answer), outcome(replay.reference.answer)
    if target == reference:
        return []
    sides = [normalize(ctx.contract, replay.method, side.body, READINGS)[0] for side in (replay.target,
                                                                                        replay.reference)]
    gaps = reading_gaps(ctx.contract, replay.method, *sides, ambiguity)
    return [DifferenceFailure(OUTCOME, reference=replay.reference.answer.body,
                              basis=Basis.AMBIGUITY if gaps else basis, answer=replay.target.answer,
                              method=replay.method, clauses=clauses,
                              expected=answer_value(replay.reference.answer),
                              received=answer_value(replay.target.answer), path=outcome_path(replay.target.answer),
                              detail={"outcome": {"target": target, "reference": reference}})]


def _schema(ctx: CheckContext, answer: Answer, clauses: tuple[str, ...]) -> list[CheckFailure]:
    if outcome(answer) != "result" or answer.method not in ctx.contract.methods:
        return []
    problems = ctx.contract.response_validator(answer.method, ctx.facts.readings).violations(answer.body)
    if not problems:
        return []
    return [SchemaViolation("Case answer breaks the contract", expected=violations_text(problems),
                            received=wrong_value(problems, answer.body), basis=Basis.SPEC, answer=answer,
                            method=answer.method, clauses=clauses, path=wrong_member(problems))]


def _invariant(ctx: CheckContext, case: Any, replay: Replay, basis: Basis,
               clauses: tuple[str, ...]) -> list[CheckFailure]:
    problem = check_invariant(case.invariant, replay.target.answer.body)
    if problem is None:
        return []
    return [CheckFailure("Case invariant broken", reference=replay.reference.answer.body, basis=basis,
                         answer=replay.target.answer, method=replay.method, clauses=clauses,
                         expected=f"invariant {case.invariant}", received=problem,
                         path=outcome_path(replay.target.answer))]


# -- generated requests -------------------------------------------------------------------------
@check("differential.generated", clauses=(*METHOD_ROWS, "2.1-R4", "4.1-R8"), methods=lambda method: True,
       description="Requests about discovered keys, for every method, get the reference's answers; lists are "
                   "walked to the end on both sides and their pages compared")
def generated(ctx: CheckContext, method: Method) -> None:
    """Over the same ledger, each method answers what the reference answers (§4.2). Fails when an
    answer differs after the normalizers."""
    if not ctx.has_reference:
        raise NotApplicable("no reference to compare with: the scenario differential needs --scenario (or a ledger)")
    requests = generated_params(ctx, method)
    if not requests:
        raise Skip(f"no discovered key to ask {method.name} about")
    each(ctx, enumerate(requests), lambda item: _generated_one(ctx, method, *item),
         lambda item: f"{method.name} request {item[0]}", kind="requests", method=lambda item: method.name)


def _generated_one(ctx: CheckContext, method: Method, index: int, params: Any) -> list[CheckFailure]:
    request_id = f"csi-diff-{method.name}-{index}"
    if method.pagination is not None and isinstance(params, dict):
        replay = walk(ctx, method, params, id=request_id)
    else:
        replay = ask(ctx, method.name, params, id=request_id)
    basis = Basis.SPEC if outcome(replay.reference.answer) == "result" else Basis.OBSERVED
    return judge(ctx, replay, basis=basis, clauses=(method.clause,))
