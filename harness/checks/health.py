"""Family `health`: getIndexerHealth and getIndexerSlot (§4.2 #18, #19, 7-C3)."""

from __future__ import annotations

from harness.core.registry import check
from harness.engine.context import CheckContext, describe


@check("health.ok", clauses=("4.2-M18", "4.2-N6", "7-C3"),
       description='getIndexerHealth answers the string "ok", or an error when the indexer lags')
def health_ok(ctx: CheckContext) -> None:
    answer = ctx.call("getIndexerHealth")
    if answer.has_result and answer.result != "ok":
        ctx.fail("Health is not ok", expected='"ok" (or an error when stale)', received=describe(answer),
                 answer=answer)
    if not answer.has_result and answer.error is None:
        ctx.fail("No health answer", expected='"ok" or a JSON-RPC error', received=describe(answer), answer=answer)


@check("health.slot", clauses=("4.2-M19", "1-R1"),
       description="getIndexerSlot is an integer no lower than any context.slot answered before it")
def indexer_slot(ctx: CheckContext) -> None:
    highest = ctx.max_context_slot
    answer = ctx.call("getIndexerSlot")
    slot = answer.result
    if type(slot) is not int:
        ctx.fail("No indexer slot", expected="an integer slot", received=describe(answer), answer=answer)
    if highest is not None and slot < highest:
        ctx.fail("Indexer slot behind answers", expected=f"slot ≥ {highest} (the highest context.slot seen)",
                 received=f"slot {slot}", answer=answer)
