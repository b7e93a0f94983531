"""`health.methods-served`: every method of the contract is served, each one missing said once.

A method answered "Method not found" (-32601, or 404/501 with no JSON-RPC answer) is one finding on that
method; every other check that meets it is N/A with that reason (`harness.context.served`), so a missing
method never reads as a wrong answer. The methods a second contract adds (`--api photon-366a15b`) are
`v2.method-present`'s, which names the clients that call them; this check asks the rest.
"""

from __future__ import annotations

from csi_conformance.harness.context import CheckContext, answer_value
from csi_conformance.harness.context.served import NOT_SERVED, not_served
from csi_conformance.harness.core.failures import CheckFailure
from csi_conformance.harness.core.paths import member
from csi_conformance.harness.core.registry import check
from csi_conformance.harness.judging.refusals import formal_params

__all__ = ["asked_here", "methods_served"]

METHOD_ROWS = tuple(f"4.2-M{row}" for row in range(1, 20))


def asked_here(ctx: CheckContext) -> list[str]:
    """The methods this check asks: the contract's, less those a second contract adds (v2.method-present's)."""
    added = set(ctx.contract.own_methods()) if ctx.contract.extends is not None else set()
    return [name for name in ctx.contract.methods if name not in added]


@check("health.methods-served", clauses=METHOD_ROWS,
       description="Every method of §4.2 is served: one answered \"Method not found\" is one finding on that method, "
                   "and the checks that need it are N/A")
def methods_served(ctx: CheckContext) -> None:
    names = asked_here(ctx)
    calls = [(name, formal_params(ctx, ctx.method(name))) for name in names]
    for name, answer in zip(names, ctx.call_many(calls), strict=True):
        if not_served(answer):
            ctx.defer(CheckFailure("Method not served", method=name, answer=answer,
                                   expected=f"{name} served, as §4.2 lists it", received=answer_value(answer),
                                   path=member("error") if answer.error is not None else member("result"),
                                   clauses=(ctx.method(name).clause,), detail={NOT_SERVED: name}))
        ctx.examined("methods", method=name)
