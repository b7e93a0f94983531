"""Typed events the runner emits; the console and the reports consume them, one handler each."""

from __future__ import annotations

from dataclasses import dataclass

from harness.core.model import CheckResult, RunResult

__all__ = ["CheckFinished", "CheckStarted", "Event", "RunFinished", "RunStarted"]


@dataclass(frozen=True)
class RunStarted:
    total: int


@dataclass(frozen=True)
class CheckStarted:
    check_id: str


@dataclass(frozen=True)
class CheckFinished:
    result: CheckResult


@dataclass(frozen=True)
class RunFinished:
    result: RunResult


Event = RunStarted | CheckStarted | CheckFinished | RunFinished
