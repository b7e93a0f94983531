"""The answer checks' judgement of one answer, whoever asked for it: a run's own requests, or an app's traffic.

`AnswerJudge` holds one `CheckResult` per answer check and hands each answer to every answer check in
turn (`judge`), or, for an HTTP 429 the client retried after, to the checks of failure bodies only
(`failure_body`). Each check body runs `guarded`: what it raises becomes a `Finding` (check id, clauses,
basis, path, request, response, curl, all redacted) or a skip, never a crash. `csi run` and `csi proxy`
both judge through it, so the same answer gives the same findings in either.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from typing import Any

from csi_conformance.harness.connection import NOT_JSON, Exchange
from csi_conformance.harness.context import Answer, CheckContext, steering
from csi_conformance.harness.core.failures import CheckFailure, NotApplicable, Skip
from csi_conformance.harness.core.model import Basis, CheckResult, Finding
from csi_conformance.harness.core.registry import CheckSpec
from csi_conformance.harness.core.values import jsonable

__all__ = ["MAX_EXAMPLES", "AnswerJudge", "finding", "guarded", "record_finding", "result_for"]

MAX_EXAMPLES = 3
"""Other occurrences kept with a grouped finding, besides its first."""


def result_for(spec: CheckSpec) -> CheckResult:
    """A check's empty result, as every run starts it."""
    return CheckResult(spec.id, spec.family, spec.clauses, spec.description, basis=spec.basis)


class AnswerJudge:
    """The answer checks of one session and their results: every answer handed in is judged by all of them."""

    def __init__(self, specs: Iterable[CheckSpec], results: dict[str, CheckResult] | None = None, *,
                 methods: set[str] | None = None,
                 record: Callable[[CheckResult, Finding], None] | None = None) -> None:
        self.specs = [spec for spec in specs if spec.kind == "answer"]
        self.results = results if results is not None else {spec.id: result_for(spec) for spec in self.specs}
        self.methods = methods or set()
        """The methods judged (`--only <method>`); empty: every one."""
        self.record = record or record_finding
        """Where a finding goes: into its check's result, grouped (`record_finding`), and wherever else it is told."""
        self._applies: dict[str, list[bool]] = {}
        """Per method, whether each answer check's rule can apply to its answers (the contract's word, asked once)."""

    def judge(self, ctx: CheckContext, answer: Answer) -> None:
        """Hand one answer to every answer check; what they find is recorded in their results."""
        if self.methods and answer.method not in self.methods:
            return
        applies = self._applies.get(answer.method)
        if applies is None:
            applies = self._applies[answer.method] = [spec.applies_to_answers(ctx.contract, answer.method)
                                                      for spec in self.specs]
        for spec, applying in zip(self.specs, applies, strict=True):
            result = self.results[spec.id]
            result.runs += 1
            if applying:
                result.methods.add(answer.method)
            guarded(ctx, spec, result, lambda s=spec: s.function(ctx, answer), answer.method, record=self.record)

    def failure_body(self, ctx: CheckContext, answer: Answer) -> None:
        """A 429 the client retried after: judged by the checks of failure bodies only (§7)."""
        for spec in self.specs:
            if spec.only_when and (not self.methods or answer.method in self.methods):
                guarded(ctx, spec, self.results[spec.id], lambda s=spec: s.function(ctx, answer), answer.method,
                        record=self.record)

    def settle(self) -> None:
        """A check of failure bodies that saw none is N/A, not SKIP: what a session without one says."""
        for spec in self.specs:
            if spec.only_when and not self.results[spec.id].examined_total:
                self.results[spec.id].not_applicable = f"this run had no {spec.only_when} to judge"


def guarded(ctx: CheckContext, spec: CheckSpec, result: CheckResult, body: Callable[[], object],
            method: str | None, *, record: Callable[[CheckResult, Finding], None] | None = None) -> bool:
    """Run one check body; what it raises becomes a finding or a skip, never a crash of the run. False
    when the body found that its rule cannot apply (`NotApplicable`).

    The check is made the context's running one for the duration, so what it examines and defers
    is its own, even when its requests run the answer checks in between.
    """
    keep = record or record_finding
    saved = steering.enter(ctx, result, method)
    try:
        body()
    except CheckFailure as failure:
        keep(result, finding(ctx, spec, failure, method))
    except NotApplicable as reason:
        result.not_applicable = reason.reason
        return False
    except Skip as skip:
        result.skipped.append(skip.reason)
    except KeyboardInterrupt:
        result.incomplete = "interrupted before it finished"
        raise
    except Exception as exc:  # an error of the kit: reported as such, never as a FAIL of the target
        failure = CheckFailure("The kit could not complete this check", expected="the check to run to its end",
                               received=steering.target_of(ctx).redactor.text(f"{type(exc).__name__}: {exc}"),
                               basis=Basis.KIT)
        keep(result, finding(ctx, spec, failure, method))
    finally:
        for failure in steering.leave(ctx, saved):
            keep(result, finding(ctx, spec, failure, method))
    return True


def finding(ctx: CheckContext, spec: CheckSpec, failure: CheckFailure, method: str | None) -> Finding:
    """A failure of `spec` as the finding reports show: its values JSON and redacted, the exchange it names."""
    basis = failure.basis or spec.basis
    answer = failure.answer
    merged = failure.response
    exchange = answer.exchange if answer is not None else None
    return Finding(
        check_id=spec.id,
        title=failure.title,
        status=failure.status or ctx.facts.profile.status_for(basis),
        basis=basis,
        clauses=failure.clauses or spec.clauses,
        method=failure.method or method,
        kind=failure.kind,
        expected=_value(ctx, failure.expected),
        received=_value(ctx, failure.received),
        detail=_value(ctx, failure.detail),
        path=failure.path,
        request=exchange.request if exchange else None,
        response=_response_of(exchange) if merged is None else merged,
        http_status=exchange.status if exchange else None,
        curl=exchange.curl() if exchange else None,
        seed=ctx.facts.seed,
        reference_response=failure.reference,
    )


def _value(ctx: CheckContext, value: Any) -> Any:
    """A failure's value as it goes into a finding: JSON, with the key redacted from every string in it."""
    value = jsonable(value, _VALUE_DEPTH)
    if isinstance(value, str):
        return steering.target_of(ctx).redactor.text(value)
    if isinstance(value, list):
        return [_value(ctx, item) for item in value]
    if isinstance(value, dict):
        return {steering.target_of(ctx).redactor.text(key): _value(ctx, item) for key, item in value.items()}
    return value


_VALUE_DEPTH = 40
"""Nesting a finding's value keeps; a deeper one is cut (the whole answer is in the finding's response)."""


def _response_of(exchange: Exchange | None) -> object:
    if exchange is None:
        return None
    if exchange.error:
        return {"transport_error": exchange.error}
    if exchange.json is NOT_JSON:
        return {"body": exchange.body[:2000].decode("utf-8", "replace"), "json_error": exchange.json_error}
    return exchange.json


def record_finding(result: CheckResult, found: Finding) -> None:
    """One entry per fault: findings with the same key (its kind's: the title and the member, list
    indices aside) in many answers are one finding with a count and a few other examples."""
    for index, existing in enumerate(result.findings):
        if existing.key != found.key:
            continue
        examples = existing.examples
        example = found.example()
        if len(examples) < MAX_EXAMPLES and not _same_values(example, existing.example()) and not any(
                _same_values(example, other) for other in examples):
            examples += (example,)
        result.findings[index] = dataclasses.replace(existing, occurrences=existing.occurrences + 1,
                                                     examples=examples)
        return
    result.findings.append(found)


def _same_values(one: dict[str, Any], other: dict[str, Any]) -> bool:
    return all(one.get(name) == other.get(name) for name in ("path", "expected", "received"))
