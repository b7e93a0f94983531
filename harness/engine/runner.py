"""Run the registered checks against a target and build the `RunResult`.

The runner knows no check by name: it takes the registry's selection, runs active checks
(once, or once per method they select, on the worker threads: `units`), hands every answer to the
answer checks, and turns what they raise into findings. It emits typed events that the console and
reports consume.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

import csi_conformance.harness.checks  # noqa: F401  (registers the catalogue: a run over the default registry runs it all)
from csi_conformance.harness.connection import Target
from csi_conformance.harness.connection.kinds import IN_FLIGHT
from csi_conformance.harness.context import CheckContext, RunFacts, steering
from csi_conformance.harness.core.baseline import apply_baseline
from csi_conformance.harness.core.errors import TargetError
from csi_conformance.harness.core.events import CheckFinished, Event, PhaseStarted, RunFinished, RunStarted
from csi_conformance.harness.core.failures import Skip
from csi_conformance.harness.core.keys import Keys
from csi_conformance.harness.core.model import (
    BaselineEntry,
    CheckResult,
    Observation,
    RunResult,
    Status,
)
from csi_conformance.harness.core.registry import REGISTRY, CheckSpec, Registry
from csi_conformance.harness.discover import discover
from csi_conformance.harness.engine.answer_judge import AnswerJudge, guarded, record_finding, result_for
from csi_conformance.harness.engine.options import DEFAULT_CONCURRENCY
from csi_conformance.harness.engine.preconditions import caught_up, knows_ledger, preflight
from csi_conformance.harness.engine.shard import Shard
from csi_conformance.harness.engine.units import plan, run_units
from csi_conformance.harness.engine.workers import Workers
from csi_conformance.schema import Contract

__all__ = ["RunConfig", "run"]


@dataclass(frozen=True, kw_only=True)
class RunConfig:
    """How to run, built once by `csi run` from its flags: which checks run, the keys to start from, how many
    requests are out at once, which findings are known. The engine's own: a check sees the run's `RunFacts`,
    never this."""

    only: list[str] = field(default_factory=list)
    skip: list[str] = field(default_factory=list)
    keys: Keys = field(default_factory=Keys)
    """The keys to cover from the start: those given (`--keys`) and those of the reference's ledger."""
    concurrency: int = DEFAULT_CONCURRENCY
    """Requests out together at most (`--concurrency`): the same requests and findings whatever it is."""
    baseline: list[BaselineEntry] | None = None
    """Known findings (`--baseline`): reported, not counted by the gate."""
    shard: Shard | None = None
    """Run only the (check, method) units this shard owns (`--shard I/N`)."""
    target_label: str | None = None
    """How reports name the target when its URL says nothing (the bundled reference on a random port)."""
    target_name: str | None = None
    """What the target's operator calls it (`--target-name`), for reports and `csi site`."""
    target_version: str | None = None
    """The target's version as its operator declares it (`--target-version`)."""
    ledger: str | None = None
    """What the target is judged over, as reports align runs on it (`ledger_identity`); None for a target's own
    data."""
    ledger_signatures: tuple[str, ...] = ()
    """The signatures of the ledger the target is compared over (`--chain`, `--ledger`, `--ledger-rpc`): a target
    that knows none of them indexed another ledger, and the run stops before judging (`knows_ledger`)."""


def run(target: Target, facts: RunFacts, config: RunConfig | None = None, *, registry: Registry = REGISTRY,
        on_event: Callable[[Event], None] = lambda event: None, reference: Target | None = None) -> RunResult:
    """Certify one target. One that cannot be certified at all (unreachable, refusing the key, behind
    the scenario) gives a result whose `precondition` says why, with no check run: one clear
    reason and an inconclusive exit, never a finding on every check.

    With a `reference` (a reference server over `facts.scenario`), the target must have indexed
    at least up to the reference's slot, and the differential checks compare the two.
    """
    config = config or RunConfig()
    contract = facts.contract
    specs = registry.select(config.only, config.skip)
    methods = _methods(contract, config.only)
    results = {spec.id: result_for(spec) for spec in specs}
    answers = AnswerJudge(specs, results, methods=methods)
    label = config.target_label or target.redactor.url(target.base_url)
    outcome = RunResult(target=label, target_name=config.target_name, target_version=config.target_version,
                        ledger=config.ledger, profile=facts.profile.name, seed=facts.seed,
                        spec_version=contract.version, started=datetime.now(UTC).isoformat(timespec="seconds"))
    ctx = CheckContext(facts, target, answers.judge, keys=copy.deepcopy(config.keys), reference=reference,
                       on_failure_body=answers.failure_body, notify=on_event)
    started = time.monotonic()
    for handle in (target, reference):
        if handle is not None:
            handle.gate.configure(concurrency=config.concurrency, limits=IN_FLIGHT,
                                  budget=facts.max_requests if handle is target else None)
    on_event(RunStarted(total=len(specs), answer_checks=len(answers.specs)))
    try:
        with Workers(target, reference, config.concurrency) as workers:
            steering.lend_pool(ctx, workers)
            _certify(ctx, workers, specs, answers, methods, config.shard, outcome, on_event,
                     config.ledger_signatures)
    except KeyboardInterrupt:
        outcome.interrupted = True
    finally:
        steering.lend_pool(ctx, None)
    outcome.duration = time.monotonic() - started
    outcome.requests = target.requests_sent
    outcome.throttled = target.throttled
    outcome.checks = list(results.values())
    outcome.discovered = ctx.keys.summary()
    outcome.stopped = ctx.stopped or target.gate.halted
    outcome.asked_again = list(target.gate.asked_again)
    outcome.observations = _observations(ctx, outcome.checks)
    outcome.notes += ctx.observed.notes
    outcome.scenario = facts.scenario if reference is not None else None
    outcome.inconclusive += _inconclusive(ctx, outcome)
    outcome.shard = str(config.shard) if config.shard else None
    if config.baseline is not None:
        apply_baseline(outcome, config.baseline)
    on_event(RunFinished(outcome))
    return outcome


def _certify(ctx: CheckContext, workers: Workers, specs: list[CheckSpec], answers: AnswerJudge,
             methods: set[str], shard: Shard | None, outcome: RunResult, on_event: Callable[[Event], None],
             ledger_signatures: Sequence[str]) -> None:
    """Preconditions, discovery, the active checks' units, then the answer checks' final word."""
    results = answers.results
    try:
        on_event(PhaseStarted("reaching the target"))
        preflight(ctx)
        knows_ledger(ctx, ledger_signatures)
        caught_up(ctx)
    except TargetError as exc:
        outcome.precondition = steering.target_of(ctx).redactor.text(str(exc))
        for result in results.values():
            result.skipped.append(f"not run: {outcome.precondition}")
        return
    on_event(PhaseStarted("discovering keys"))
    _discover(ctx)
    units = plan(ctx, specs, results, methods, shard)
    run_units(ctx, workers, specs, units, results, guarded, record_finding, on_event)
    for twin in steering.memo_forks(ctx):  # what the checks' shared memos asked, judged in the order of their names
        steering.absorb(ctx, twin)
    answers.settle()
    for spec in answers.specs:
        on_event(CheckFinished(results[spec.id]))  # an answer check's status is final only now


def _methods(contract: Contract, only: Iterable[str]) -> set[str]:
    return {token for token in only if token in contract.methods}


def _discover(ctx: CheckContext) -> None:
    """Discovery that the budget or a flood cuts short leaves fewer keys, not a crashed run."""
    try:
        discover(ctx)
    except Skip as skip:
        ctx.note(f"discovery stopped early: {skip.reason}")


def _inconclusive(ctx: CheckContext, outcome: RunResult) -> list[str]:
    """Why a run without blocking findings still cannot call the target conformant."""
    reasons = []
    if steering.budget_spent(ctx):
        skipped = sum(1 for check in outcome.checks if check.status is Status.SKIP)
        reasons.append(f"the request budget (--max-requests {ctx.facts.max_requests}) ran out: "
                       f"{skipped} checks examined nothing")
    if outcome.stopped:
        reasons.append(outcome.stopped)
    elif steering.unjudged(ctx):
        reasons.append(f"{steering.unjudged(ctx)} requests of the checks were rate limited without end (HTTP 429 "
                       "after every retry): what they asked was not judged")
    errors = sorted({f.check_id for f in outcome.findings if f.status is Status.ERROR})
    if errors:
        reasons.append(f"the kit itself failed in {len(errors)} checks ({', '.join(errors)}): "
                       "an error of csi, not of the target")
    return reasons


def _observations(ctx: CheckContext, checks: list[CheckResult]) -> list[Observation]:
    """Which readings the target's answers followed, for every ambiguity point of the contract; a point
    no answer touched says so, with what it takes and what became of the checks that look for it."""
    ran = {check.check_id: check for check in checks}
    observations = []
    for amb in sorted(ctx.contract.ambiguities.values(), key=lambda amb: amb.id):
        counts = ctx.observed.readings_seen.get(amb.id, {})
        answers = ctx.observed.answers_seen.get(amb.id, 0)
        reason = None if answers else (f"not exercised by this run: it takes {amb.evidence}, and none came ("
                                       + "; ".join(_looked(ran.get(check_id), check_id) for check_id in amb.checks)
                                       + ")")
        observations.append(Observation(amb.id, amb.clause, amb.question, amb.observed,
                                        {name: counts.get(name, 0) for name in amb.readings}, answers, reason))
    return observations


def _looked(check: CheckResult | None, check_id: str) -> str:
    """What became of one check that looks for a point's evidence, in a few words."""
    if check is None:
        return f"{check_id} was not run"
    if check.status in (Status.SKIP, Status.NOT_APPLICABLE):
        return f"{check_id} {check.status.value}: {check.skip_reason}"
    return f"{check_id} ran and saw none"
