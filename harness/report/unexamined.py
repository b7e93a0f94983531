"""What a run examined nothing of, and why, as the console and report.html both show it.

A verdict rests only on the checks that examined something: a CONFORMANT run whose checks for token
accounts found none certified nothing about them. So every SKIP check (it could apply, and examined
nothing) is shown with its reason, grouped when several share one, and every N/A check (it cannot
apply to this run's mode) is counted, with its reason. A run whose target holds batched (v2) trees
also shows what the checks of batched trees examined, since a ledger of v1 trees leaves them idle.
"""

from __future__ import annotations

from dataclasses import dataclass

from csi_conformance.harness.core.model import CheckResult, RunResult, Status
from csi_conformance.harness.report.findings import skip_reason

__all__ = ["BATCHED_CHECKS", "BatchedCoverage", "Unexamined", "batched_coverage", "examined_words",
           "unexamined_groups"]

BATCHED_CHECKS = ("crypto.batched-accounts", "v2.prove-by-index", "v2.validity-root-indices", "onchain.queued-spend")
"""Checks whose work is the accounts of batched trees (besides any whose description names batched trees)."""
BATCHED_WORD = "batched"
BATCHED_KEYS = "batched_trees"
"""The discovered kind naming the target's batched state trees (from its getQueueInfo)."""


@dataclass(frozen=True)
class Unexamined:
    """Checks of one status (SKIP or N/A) that examined nothing for one reason, in run order."""

    status: Status
    reason: str
    checks: tuple[str, ...]


def unexamined_groups(result: RunResult, status: Status) -> list[Unexamined]:
    """The checks of `status` (SKIP or N/A) grouped by the reason they examined nothing; groups in the order
    their first check ran, so a family's reasons stay together."""
    groups: dict[str, list[str]] = {}
    for check in result.checks:
        if check.status is status:
            groups.setdefault(skip_reason(check) or "no reason recorded", []).append(check.check_id)
    return [Unexamined(status, reason, tuple(ids)) for reason, ids in groups.items()]


@dataclass(frozen=True)
class BatchedCoverage:
    """The batched trees a run found and what each check of batched trees examined of them."""

    trees: int
    checks: tuple[CheckResult, ...]


def batched_coverage(result: RunResult) -> BatchedCoverage | None:
    """What the batched checks examined, when the target holds batched trees (its getQueueInfo named some) or
    a batched check examined something; None otherwise (a ledger of v1 trees, a contract without them)."""
    checks = tuple(check for check in result.checks if concerns_batched(check))
    trees = len(result.discovered.get(BATCHED_KEYS, ()))
    if not checks or not (trees or any(check.examined_total for check in checks)):
        return None
    return BatchedCoverage(trees, checks)


def concerns_batched(check: CheckResult) -> bool:
    return check.check_id in BATCHED_CHECKS or BATCHED_WORD in check.description.lower()


def examined_words(check: CheckResult) -> str:
    """`accounts 2, proofs 2`: what a check examined, by kind; `nothing` when it examined nothing."""
    return ", ".join(f"{kind} {count}" for kind, count in sorted(check.examined.items()) if count) or "nothing"
