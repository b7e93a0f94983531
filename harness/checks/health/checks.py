"""Family `health`: getIndexerHealth and getIndexerSlot (§4.2 #18, #19, 7-C3)."""

from __future__ import annotations

from csi_conformance.harness.context import CheckContext, answer_value
from csi_conformance.harness.context.served import not_served
from csi_conformance.harness.core.failures import CheckFailure, NotApplicable, Skip
from csi_conformance.harness.core.model import Basis, Status
from csi_conformance.harness.core.paths import BODY, member
from csi_conformance.harness.core.registry import check
from csi_conformance.harness.core.values import clip
from csi_conformance.harness.judging.answers import outcome_path


@check("health.ok", clauses=("4.2-M18", "4.2-N6", "7-C3", "7-R1"),
       description='getIndexerHealth answers the string "ok", or a well-formed JSON-RPC error when the indexer lags')
def health_ok(ctx: CheckContext) -> None:
    """What the spec lets the kit judge, and what it does not.

    §4.2 #18 and 4.2-N6: the result is `ok`, "otherwise an error, when the indexer is stale by more
    than a configurable number of blocks" (7-C3). A success that is not `ok` is a FAIL, and so is an
    error that is not a JSON-RPC error object `{code: integer, message: string}` (7-R1).

    Whether an error is deserved depends on the chain tip and on the target's configured threshold,
    neither of which the API exposes: a target that is really stale is right to answer an error
    (`csi run --scenario stale` is such a target), and the kit cannot tell it from a healthy target
    answering one. So a well-formed error is reported UNVERIFIED ("the target says it is stale",
    with its message): never a FAIL, never gating, and not counted as having examined 7-C3. Under
    `--scenario`, the golden cases of differential.cases compare the answer with the reference's
    over the same ledger and tip.
    """
    answer = ctx.call("getIndexerHealth")
    if answer.has_result:
        ctx.examined("answers")
        if answer.result != "ok":
            ctx.fail("Health is not ok", expected='the string "ok" (or an error when stale)',
                     received=answer_value(answer), answer=answer, path=member("result"))
        return
    error = answer.error
    if error is None:
        ctx.fail("No health answer", expected='"ok" or a JSON-RPC error', received=answer_value(answer),
                 answer=answer, path=BODY)
    if type(error.get("code")) is not int or not isinstance(error.get("message"), str):
        ctx.examined("answers")
        ctx.fail("Malformed health error", expected="error {code: integer, message: string} (§7)",
                 received=clip(error), answer=answer, clauses=("7-R1", "7-C3"),
                 path=member("error", "code" if type(error.get("code")) is not int else "message"))
    if not_served(answer):
        raise NotApplicable("getIndexerHealth is not served by the target (it answered \"Method not found\"): "
                            "health.methods-served reports it once")
    raise CheckFailure("Target says it is stale", expected='"ok" from an indexer within the configured lag; an '
                       "error otherwise (the chain tip is not visible through the API, so the kit cannot tell which)",
                       received=clip(error), answer=answer,
                       method=answer.method, status=Status.UNVERIFIED, clauses=("7-C3", "4.2-N6"),
                       path=member("error"))


@check("health.slot", clauses=("4.2-M19", "2.2-R1"), basis=Basis.OBSERVED,
       description="getIndexerSlot is an integer, no lower than any context.slot answered before it (observed)")
def indexer_slot(ctx: CheckContext) -> None:
    """The integer result is the spec's (§4.2 #19: "slot of the last block indexed"): FAIL otherwise.

    That it is never below a `context.slot` answered earlier is not stated: the spec defines
    context.slot as the slot an answer was computed at (2.2-R1) and says nothing of how the two
    relate over time (a load-balanced deployment may answer from a replica a few slots behind).
    It is observed practice, judged like consistency.context-slot (a slot going backwards): INFO
    under the spec profile, FAIL under strict.
    """
    highest = ctx.observed.max_context_slot
    answer = ctx.call("getIndexerSlot")
    slot = answer.result
    if type(slot) is not int or slot < 0:
        ctx.fail("No indexer slot", expected="a non-negative integer slot", received=answer_value(answer),
                 answer=answer, basis=Basis.SPEC, clauses=("4.2-M19",), path=outcome_path(answer))
    ctx.examined("answers")
    if highest is not None and slot < highest:
        ctx.fail("Indexer slot behind answers", expected=f"a slot ≥ {highest} (the highest context.slot seen)",
                 received=slot, answer=answer, path=member("result"))


SAMPLES = 8
"""Pairs (a state answer, then getIndexerSlot) asked in order on one connection to judge the pattern."""


@check("health.slot-behind-answers", clauses=("4.2-M19", "2.2-R1"),
       description="getIndexerSlot asked right after a state answer is never below that answer's context.slot, "
                   "in every one of several samples asked in order")
def slot_behind_answers(ctx: CheckContext) -> None:
    """§2.2: `context.slot` is the slot an answer was computed at; §4.2 #19: getIndexerSlot is the slot of the
    last block indexed. An answer computed at a slot the indexer says, a moment later, it has not indexed
    contradicts both. One such pair may be a race behind a load balancer (health.slot reports it as observed
    practice); the same contradiction in every sample, asked one after the other, is not a race: FAIL."""
    behind = []
    for _ in range(SAMPLES):
        state = ctx.call("getLatestCompressionSignatures", {"limit": 1})
        slot = ctx.call("getIndexerSlot")
        if state.context_slot is None or type(slot.result) is not int:
            raise Skip("no context.slot and integer slot to compare (schema.context-slot and health.slot say why)")
        ctx.examined("pairs")
        if slot.result < state.context_slot:
            behind.append((state.context_slot, slot.result, slot))
    if len(behind) == SAMPLES:
        first_context, first_slot, answer = behind[0]
        ctx.fail("Indexer slot behind its own answers", expected=f"a slot ≥ {first_context}, the context.slot of the "
                 "answer just before it", received=first_slot, answer=answer, path=member("result"),
                 detail={"samples behind": f"{len(behind)} of {SAMPLES}"})
    if behind:  # some, not all: a race is possible, so observed practice only
        first_context, first_slot, answer = behind[0]
        ctx.defer(CheckFailure("Indexer slot behind an answer in some samples", expected=f"a slot ≥ {first_context}",
                               received=first_slot, answer=answer, method=answer.method, path=member("result"),
                               basis=Basis.OBSERVED, detail={"samples behind": f"{len(behind)} of {SAMPLES}"}))
