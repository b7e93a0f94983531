"""Typed events the runner emits; the console and the reports consume them, one handler each."""

from __future__ import annotations

from dataclasses import dataclass

from csi_conformance.harness.core.model import CheckResult, RunResult

__all__ = ["CheckFinished", "CheckStarted", "Event", "PhaseStarted", "RunFinished", "RunStarted", "TargetThrottled",
           "UnitFinished"]


@dataclass(frozen=True)
class RunStarted:
    total: int
    """Every selected check, answer checks included."""
    answer_checks: int = 0
    """How many of them judge every answer: their status is final only when the run ends."""


@dataclass(frozen=True)
class PhaseStarted:
    """A step of the run that is not one check (reaching the target, discovering keys), so a slow one shows."""

    name: str


@dataclass(frozen=True)
class CheckStarted:
    check_id: str


@dataclass(frozen=True)
class CheckFinished:
    """A check whose status is final: an active check when it returns, an answer check when the run ends."""

    result: CheckResult


@dataclass(frozen=True)
class TargetThrottled:
    """The target has answered HTTP 429 (rate limited) `answers` times in `requests` requests so far: the
    run slows down with it, and the person running it should know why, and about `--rate`."""

    answers: int
    requests: int


@dataclass(frozen=True)
class RunFinished:
    result: RunResult


@dataclass(frozen=True)
class UnitFinished:
    """One unit of an active check (the check on one method) was taken: how long it ran on its worker, and how many
    requests it sent there. What `benchmarks/measure_chains.py` reads to find the longest chains."""

    name: str
    seconds: float
    requests: int


Event = RunStarted | PhaseStarted | CheckStarted | CheckFinished | TargetThrottled | RunFinished | UnitFinished
