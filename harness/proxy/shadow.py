"""`--shadow URL2`: the app's request also put to a second indexer, the two answers compared as the differential
compares a target with the reference (`differential.replay.judge`: its normalizers, its bases, its titles)."""

from __future__ import annotations

from csi_conformance.harness.checks.differential.replay import Replay, Side, judge, outcome
from csi_conformance.harness.context import Answer, CheckContext
from csi_conformance.harness.core.model import Basis

__all__ = ["SHADOW", "compare"]

SHADOW = "differential.generated"
"""The differential check whose findings a shadow's differences are: a request about the ledger, on both sides."""


def compare(ctx: CheckContext, answer: Answer, shadow: Answer) -> None:
    """Defer each difference between the upstream's answer and the shadow's (the shadow taken as the truth)."""
    method = ctx.contract.methods.get(answer.method)
    basis = Basis.SPEC if outcome(shadow) == "result" else Basis.OBSERVED
    clauses = (method.clause,) if method is not None else ()
    replay = Replay(answer.method, Side(answer, answer.body), Side(shadow, shadow.body))
    for failure in judge(ctx, replay, basis=basis, clauses=clauses):
        ctx.defer(failure)
    ctx.examined("requests", method=answer.method)
