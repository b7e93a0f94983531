"""The active checks' work in units (a check once, or once per method it applies to), run on the worker threads.

Each unit runs in a fork of the run's context with a result of its own; the run's thread takes the
units in the catalogue's order as they end, judges what each asked (`steering.absorb`) and adds its
result to its check's. A finding is recorded into the check's result at that moment, not when it was
found, so grouping, counts and examples are those of a run that asked one request at a time.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from csi_conformance.harness.connection import Target
from csi_conformance.harness.context import CheckContext, steering
from csi_conformance.harness.core.events import CheckFinished, CheckStarted, Event, UnitFinished
from csi_conformance.harness.core.model import CheckResult, Finding
from csi_conformance.harness.core.registry import CheckSpec
from csi_conformance.harness.engine.shard import Shard
from csi_conformance.harness.engine.workers import Workers
from csi_conformance.schema import Method

__all__ = ["Unit", "chains", "long_chains", "plan", "run_units"]

AHEAD = 8
"""Units started ahead of the one being judged, per worker."""
LONG_CHAIN = 10
"""Round trips in sequence from which a unit is a long chain, started before the others (`submission_order`)."""


@cache
def chains() -> dict[str, int]:
    """Unit name -> the round trips it makes one after another (a walk's pages, a proof after its accounts), as
    `benchmarks/measure_chains.py` measured them against a target 100 ms away (`chains.json`)."""
    text = (resources.files(__package__) / "chains.json").read_text(encoding="utf-8")
    return {name: int(value) for name, value in json.loads(text)["chains"].items()}


def long_chains(units: list[Unit], workers: int, known: dict[str, int] | None = None) -> list[int]:
    """The units started before the others, longest first: up to one per worker, each at least `LONG_CHAIN` round
    trips. Over a slow wire a long walk started last holds the run's end while the other workers idle. Only the
    start moves: units are still judged in the catalogue's order, each in its fork named after it, so the
    requests and the findings stay the same."""
    known = chains() if known is None else known
    return sorted((index for index, unit in enumerate(units) if known.get(unit.name, 0) >= LONG_CHAIN),
                  key=lambda index: (-known[units[index].name], index))[:workers]
Outcome = tuple[CheckContext, CheckResult, bool, bool, float, int]
"""What a unit's work gives back: its fork, its result, whether its rule applied, whether it was cut short, the
seconds it ran and the requests it sent."""
Guarded = Callable[..., bool]
"""`answer_judge.guarded`: runs one check body, what it raises becoming a finding; False when it cannot apply."""


@dataclass(frozen=True)
class Unit:
    """One check on one method (or once, for a check of the whole target)."""

    spec: CheckSpec
    method: Method | None
    name: str
    """What its forked context is named after: its request ids and randomness follow from it and the seed."""


def plan(ctx: CheckContext, specs: list[CheckSpec], results: dict[str, CheckResult], methods: set[str],
         shard: Shard | None) -> list[Unit]:
    """The units of the active checks, in the catalogue's order; the checks' results say where each ran."""
    units = []
    for spec in specs:
        if spec.kind != "active":
            continue
        result = results[spec.id]
        chosen = [None] if spec.methods is None else [
            method for method in ctx.contract.methods.values()
            if spec.applies_to(method) and (not methods or method.name in methods)]
        for method in chosen:
            if shard is not None and not shard.owns(spec.id, method.name if method else None):
                result.other_shards = True
                continue
            result.runs += 1
            if method is not None:
                result.methods.add(method.name)
            units.append(Unit(spec, method, spec.id if method is None else f"{spec.id}/{method.name}"))
    return units


def run_units(ctx: CheckContext, workers: Workers, specs: list[CheckSpec], units: list[Unit],
              results: dict[str, CheckResult], guarded: Guarded, record: Callable[[CheckResult, Finding], None],
              on_event: Callable[[Event], None]) -> None:
    """Run every unit on the workers and add what each found to its check's result, in the catalogue's order.
    An interrupt ends the units under way (each is then incomplete), keeps what ended, and is raised again."""
    futures: dict[int, Future] = {}
    long = long_chains(units, workers.concurrency)
    order, first = [*long, *(index for index in range(len(units)) if index not in set(long))], len(long)

    def submitted(index: int) -> Future:
        """Unit `index`'s future; the long chains first, and the units up to `AHEAD` per worker further on are started
        too, so that the workers keep the wire busy while the answers waiting to be judged stay few."""
        while len(futures) < len(units) and (index not in futures
                                              or len(futures) < index + 1 + first + AHEAD * workers.concurrency):
            start = order[len(futures)]
            futures[start] = workers.submit(_work(ctx, units[start], guarded))
        return futures[index]

    by_spec: dict[str, list[int]] = {spec.id: [] for spec in specs if spec.kind == "active"}
    for index, unit in enumerate(units):
        by_spec[unit.spec.id].append(index)
    taken = 0
    try:
        for spec in specs:
            if spec.kind != "active":
                continue
            on_event(CheckStarted(spec.id))
            inapplicable = set()
            for index in by_spec[spec.id]:
                unit, (outcome,) = units[index], workers.results([submitted(index)])
                taken += 1
                applies = _take(ctx, results[spec.id], outcome, record)
                on_event(UnitFinished(unit.name, outcome[4], outcome[5]))
                if outcome[3]:
                    raise KeyboardInterrupt  # the unit was cut short: the run was interrupted
                if not applies and unit.method is not None:
                    inapplicable.add(unit.method.name)
            if results[spec.id].examined_total:  # a check that did its work elsewhere did not miss those methods
                results[spec.id].methods -= inapplicable
            on_event(CheckFinished(results[spec.id]))
        if steering.target_of(ctx).gate.cancelled.is_set():  # interrupted where the KeyboardInterrupt itself was lost
            raise KeyboardInterrupt
    except KeyboardInterrupt:
        for index in range(taken, len(units)):
            if index not in futures:
                continue
            unit, outcome = units[index], workers.outcome(futures[index])
            if isinstance(outcome, tuple):
                _take(ctx, results[unit.spec.id], outcome, record)
        raise


def _work(ctx: CheckContext, unit: Unit, guarded: Guarded) -> Callable[[Target, Target | None], Any]:
    spec, method = unit.spec, unit.method

    def work(target: Target, reference: Target | None) -> Outcome:
        twin = steering.fork(ctx, unit.name, target, reference)
        part = CheckResult(spec.id, spec.family, spec.clauses, spec.description, basis=spec.basis)
        body = (lambda: spec.function(twin)) if method is None else (lambda: spec.function(twin, method))
        started, sent = time.monotonic(), target.sent_here
        try:
            applies = guarded(twin, spec, part, body, method.name if method else None, record=_append)
        except KeyboardInterrupt:  # the run was interrupted: `guarded` marked the part incomplete
            return twin, part, True, True, time.monotonic() - started, target.sent_here - sent
        return twin, part, applies, False, time.monotonic() - started, target.sent_here - sent

    return work


def _append(result: CheckResult, finding: Finding) -> None:
    result.findings.append(finding)


def _take(ctx: CheckContext, result: CheckResult, outcome: Outcome,
          record: Callable[[CheckResult, Finding], None]) -> bool:
    """Judge what a unit asked and add its result to its check's; whether the unit's rule applied."""
    twin, part, applies, _interrupted, _seconds, _sent = outcome
    steering.absorb(ctx, twin)
    for finding in part.findings:
        record(result, finding)
    result.skipped += part.skipped
    result.unreached += part.unreached
    for kind, n in part.examined.items():
        result.examined[kind] = result.examined.get(kind, 0) + n
    result.examined_methods |= part.examined_methods
    result.not_applicable = part.not_applicable or result.not_applicable
    result.incomplete = part.incomplete or result.incomplete
    return applies
