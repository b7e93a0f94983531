"""A session of an app's traffic judged by the checks of `csi run`: each passage in turn, on one thread.

Each passage is routed by what it holds: a call (an object with a `method` and an `id`) is an answer for the
answer checks (`engine.answer_judge`, the same judgement `csi run` gives its own requests) and for the session's
cursor walks; a notification and a batch are judged by the rules of `envelope.notification` and
`envelope.batch`, each call in a batch then as a call of its own; anything else is a raw request, whose failure
answers only the checks of failure bodies judge (as `csi run` judges its own raw requests). With a shadow the
call's answer is compared with the shadow's, with `--proofs verify` a served proof is verified, with
`--solana-rpc` the roots it serves are looked up in the chain's root histories. The findings of
one passage are handed back, and the session's result is a `RunResult` every report writer reads.
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import csi_conformance.harness.checks  # noqa: F401  (registers the catalogue)
from csi_conformance.harness.connection import Target
from csi_conformance.harness.context import Answer, CheckContext, RunFacts
from csi_conformance.harness.core.keys import Keys
from csi_conformance.harness.core.model import CheckResult, Finding, RunResult
from csi_conformance.harness.core.registry import REGISTRY
from csi_conformance.harness.engine.answer_judge import AnswerJudge, guarded, record_finding, result_for
from csi_conformance.harness.proxy.chain_roots import ROOTS, NodeHistories, judge_roots
from csi_conformance.harness.proxy.coverage import Reached
from csi_conformance.harness.proxy.passage import Passage
from csi_conformance.harness.proxy.proofs import GROTH16, verify_served
from csi_conformance.harness.proxy.rules import (
    BATCH,
    NOTIFICATION,
    WALK,
    Walks,
    batch_answered,
    notification_unanswered,
)
from csi_conformance.harness.proxy.shadow import SHADOW, compare

__all__ = ["TrafficJudge"]


class TrafficJudge:
    """The checks' results over one session of traffic, and what each passage added to them."""

    def __init__(self, facts: RunFacts, upstream: str, *, label: str | None = None, verify_proofs: bool = False,
                 shadowed: bool = False, histories: NodeHistories | None = None) -> None:
        self.facts = facts
        self._target = Target(upstream)
        """Never asked: the upstream as findings name it (its redactor knows the key of the URL)."""
        self.base_url = self._target.redactor.url(upstream)
        self.label = label or self.base_url
        self.answers = AnswerJudge(REGISTRY.all(), record=self._record)
        self.ctx = CheckContext(facts, self._target, self.answers.judge, keys=Keys(),
                                on_failure_body=self.answers.failure_body)
        rules = [BATCH, NOTIFICATION, WALK] + [GROTH16] * verify_proofs + [SHADOW] * shadowed \
            + [ROOTS] * (histories is not None)
        self.histories = histories
        """The chain's root histories, read through a Solana node (`--solana-rpc`), or None."""
        self.rules = {check_id: (REGISTRY.get(check_id), result_for(REGISTRY.get(check_id))) for check_id in rules}
        self.verify_proofs = verify_proofs
        self.reached = Reached(facts.contract)
        self.walks = Walks()
        self.passages = 0
        self.started = datetime.now(UTC).isoformat(timespec="seconds")
        self._new: list[Finding] = []
        self.kit_errors: list[str] = []
        """What the kit itself failed to judge (an error of csi, not of the upstream)."""
        self._lock = threading.Lock()

    def judge(self, passage: Passage, shadow: Passage | None = None) -> list[Finding]:
        """Judge one passage (and the shadow's answer to the same request); the findings it gave."""
        with self._lock:
            self._new = []
            self.passages += 1
            try:
                self._route(passage, shadow)
            except Exception as exc:  # an error of the kit, never a crash of the proxy: the reports say it
                self.kit_errors.append(f"{passage.path}: {type(exc).__name__}: {exc}")
            return self._new

    def result(self) -> RunResult:
        """The session so far as a `RunResult`, with what the traffic reached in its notes."""
        with self._lock:
            checks = [*self.answers.results.values(), *(result for _, result in self.rules.values())]
            outcome = RunResult(target=self.label, profile=self.facts.profile.name, seed=self.facts.seed,
                                spec_version=self.facts.contract.version, started=self.started,
                                requests=self.passages, checks=[_copy(check) for check in checks])
            outcome.notes = self.reached.notes(checks)
            if self.kit_errors:
                outcome.inconclusive.append(f"the kit failed judging {len(self.kit_errors)} exchanges (an error of "
                                            f"csi, not of the upstream); the first: {self.kit_errors[0]}")
            return outcome

    def reach(self) -> dict[str, Any]:
        with self._lock:
            return self.reached.summary([*self.answers.results.values(), *(r for _, r in self.rules.values())])

    def close(self) -> None:
        self._target.close()
        if self.histories is not None:
            self.histories.close()

    # -- routing -------------------------------------------------------------------------
    def _route(self, passage: Passage, shadow: Passage | None) -> None:
        request = passage.request
        whole = passage.exchange(self.base_url)
        if isinstance(request, dict) and isinstance(request.get("method"), str):
            answer = Answer(request["method"], request.get("params"), whole)
            self.reached.saw(answer.method, answer.params)
            if "id" not in request:
                self._rule(NOTIFICATION, lambda: notification_unanswered(self.ctx, answer), answer.method)
                return
            self._call(answer, shadow.exchange(self.base_url) if shadow is not None else None)
        elif isinstance(request, list):
            self._batch(passage, request)
        else:
            answer = Answer(whole.method or "(malformed request)", None, whole)
            if not whole.error and (whole.status or 0) >= 400:  # as `csi run` judges a raw request's failure
                self.answers.failure_body(self.ctx, answer)

    def _batch(self, passage: Passage, requests: list) -> None:
        whole = Answer("(batch)", None, passage.exchange(self.base_url))
        self._rule(BATCH, lambda: batch_answered(self.ctx, whole, requests), None)
        body = whole.exchange.json
        by_id = {_id(item.get("id")): item for item in body if isinstance(item, dict)} if isinstance(body, list) \
            else {}
        for item in requests:
            if not isinstance(item, dict) or not isinstance(item.get("method"), str):
                continue
            self.reached.saw(item["method"], item.get("params"))
            if "id" in item and _id(item["id"]) in by_id:
                exchange = passage.exchange(self.base_url, request=item, body=by_id[_id(item["id"])])
                self._call(Answer(item["method"], item.get("params"), exchange), None)

    def _call(self, answer: Answer, shadow: Any) -> None:
        """One call's answer, as `csi run` judges the answers to its own calls; then the session's rules."""
        self.ctx.observed.slot_seen(answer.context_slot)
        self.answers.judge(self.ctx, answer)
        self._rule(WALK, lambda: self.walks.judge(self.ctx, answer), answer.method)
        if self.verify_proofs:
            self._rule(GROTH16, lambda: verify_served(self.ctx, answer), answer.method)
        if self.histories is not None:
            self._rule(ROOTS, lambda: judge_roots(self.ctx, answer, self.histories), answer.method)
        if shadow is not None and SHADOW in self.rules:
            twin = Answer(answer.method, answer.params, shadow)
            self._rule(SHADOW, lambda: compare(self.ctx, answer, twin), answer.method)

    def _rule(self, check_id: str, body: Callable[[], object], method: str | None) -> None:
        spec, result = self.rules[check_id]
        result.runs += 1
        if method is not None and method in self.facts.contract.methods:
            result.methods.add(method)
        guarded(self.ctx, spec, result, body, method, record=self._record)

    def _record(self, result: CheckResult, finding: Finding) -> None:
        record_finding(result, finding)
        self._new.append(finding)


def _id(value: Any) -> str:
    """An id as a key: `1` and `"1"` are different ids."""
    return f"{type(value).__name__}:{value!r}"


def _copy(check: CheckResult) -> CheckResult:
    """A result as it stands, for a report written while the session goes on."""
    return copy.deepcopy(check)
