"""`consistency.unknown-balance`: the balance of an account that does not exist, or no longer does.

The spec says what getCompressedAccount answers for an account not found (a null value) but not what the
balance methods answer. The contract records the practice (`observed.unknown_account` of each balance method:
0 lamports, a token amount of 0), so an unknown hash and a closed (consumed) account's hash are asked of each
method that records one, and an answer other than that (an error, a null) is a finding resting on observed
practice: its basis says so, and the profile decides whether it gates.
"""

from __future__ import annotations

from csi_conformance.harness.context import CheckContext, answer_value
from csi_conformance.harness.core.failures import CheckFailure, Mismatch, Skip
from csi_conformance.harness.core.model import Basis
from csi_conformance.harness.core.paths import result_value
from csi_conformance.harness.core.registry import check
from csi_conformance.harness.judging.answers import state_value
from csi_conformance.schema import Method

__all__ = ["unknown_balance"]

CLOSED_ASKED = 3
"""Closed accounts whose balance is asked, per method."""
UNKNOWN = "unknown_account"
"""The member of a method's `observed` that records what it answers for an account it does not hold."""


def _asked(ctx: CheckContext) -> list[tuple[str, object]]:
    """(method, the answer recorded for an account it does not hold), for each method that records one."""
    return [(name, method.observed[UNKNOWN]) for name, method in ctx.contract.methods.items()
            if method.state and UNKNOWN in method.observed and "hash" in _members(method)]


def _members(method: Method) -> set[str]:
    return {name for group in method.asked_by for name in group} if method.asked_by else set()


@check("consistency.unknown-balance", clauses=("4.2-M2", "4.2-M3", "4.2-M9"), basis=Basis.OBSERVED,
       description="The balance of an unknown account, and of a closed one, is what the contract records as "
                   "practice (0, or a token amount of 0), not an error")
def unknown_balance(ctx: CheckContext) -> None:
    asked = _asked(ctx)
    if not asked:
        raise Skip("no balance method of the contract records what it answers for an unknown account")
    closed = list(ctx.keys["closed_hashes"])[:CLOSED_ASKED]
    for method, expected in asked:
        hashes = [(ctx.fresh_pubkey(), "an unknown"), *((hash_, "a closed") for hash_ in closed)]
        answers = ctx.call_many([(method, {"hash": hash_}) for hash_, _ in hashes])
        for (hash_, kind), answer in zip(hashes, answers, strict=True):
            value = state_value(ctx, answer)
            if value != expected or not (answer.has_result or value is not None):
                ctx.defer((Mismatch if value is not None else CheckFailure)(
                    f"Balance of {kind} account is not {_said(expected)}", answer=answer, method=method,
                    expected=expected, received=value if value is not None else answer_value(answer),
                    path=result_value(), clauses=(ctx.method(method).clause,),
                    detail={"account": hash_, "basis": f"observed practice: {method}'s observed.{UNKNOWN}"}))
            ctx.examined("accounts", method=method)


def _said(expected: object) -> str:
    return "0" if expected == 0 else "a token amount of 0" if expected == {"amount": 0} else str(expected)
