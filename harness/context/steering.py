"""The engine's side of a context: what it does with one that no check may.

It makes a check the running one for as long as its body runs (`enter`, `leave`), forks the context
onto a worker thread and judges what the fork asked on the run's own thread (`fork`, `absorb`,
`memo_forks`), and lends it the run's worker pool (`lend_pool`). Only the engine imports this module
(tests/test_layers.py: no check does), so a check's face, `CheckContext`, holds none of it.
"""

from __future__ import annotations

from csi_conformance.harness.connection import Target
from csi_conformance.harness.context import CheckContext
from csi_conformance.harness.context.asking import Pool
from csi_conformance.harness.core.failures import CheckFailure
from csi_conformance.harness.core.model import CheckResult

__all__ = ["absorb", "budget_spent", "enter", "fork", "leave", "lend_pool", "memo_forks", "target_of", "unjudged"]


def enter(ctx: CheckContext, result: CheckResult, method: str | None) -> tuple:
    """Make `result` the running check's; returns what `leave` restores."""
    return ctx._record.enter(result, method)


def leave(ctx: CheckContext, saved: tuple) -> list[CheckFailure]:
    """Restore the check that was running before; returns the failures the leaving check deferred."""
    return ctx._record.leave(saved)


def fork(ctx: CheckContext, name: str, target: Target, reference: Target | None) -> CheckContext:
    """A context for the work named `name` on a worker thread asking through `target` (and `reference`)."""
    return ctx._asking.fork(ctx, name, target, reference)


def absorb(ctx: CheckContext, twin: CheckContext) -> None:
    """Judge what a fork asked, in the order it asked, and keep its notes (on the run's own thread)."""
    ctx._asking.absorb(ctx, twin)


def memo_forks(ctx: CheckContext) -> list[CheckContext]:
    """The forks `once` asked in, by key: absorbed by the run after its checks."""
    return ctx._asking.memo_forks()


def lend_pool(ctx: CheckContext, pool: Pool | None) -> None:
    """Let `call_many` send on the run's worker threads (None: ask in turn, as after the run)."""
    ctx._asking.workers = pool


def target_of(ctx: CheckContext) -> Target:
    """The handle on the target a context asks through (its redactor, its gate)."""
    return ctx._asking.target


def budget_spent(ctx: CheckContext) -> bool:
    """Whether a request was refused because `--max-requests` ran out: the run is then inconclusive."""
    return ctx._asking.budget_spent


def unjudged(ctx: CheckContext) -> int:
    """Checks' requests the target left unjudged (HTTP 429 after every retry): the run is then inconclusive."""
    return ctx._asking.unjudged
