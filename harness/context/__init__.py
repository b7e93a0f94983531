"""What a check sees: the run's facts, a way to ask the target, the running check's record, the run's observations.

Each lives in a part of its own, because each changes for its own reason: `facts` (frozen, built
once from the options), `asking` (the target, the gate, forks on worker threads), `record` (the
check running now), `observed` (readings, slots and notes across the run) and `memo` (what the run
works out once, under typed keys). `CheckContext` is the one face the checks use over them:
`ctx.contract`, `ctx.keys`, `ctx.call`, `ctx.fail`, … read and act on the part that holds them.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from random import Random
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from csi_conformance.harness.answer import Answer
from csi_conformance.harness.connection import OMIT, Exchange, Target
from csi_conformance.harness.context.asking import STOP_AFTER, Asking, Judge
from csi_conformance.harness.context.facts import RunFacts
from csi_conformance.harness.context.memo import Memo, MemoKey
from csi_conformance.harness.context.observed import Observed
from csi_conformance.harness.context.received import answer_value, body_value, describe
from csi_conformance.harness.context.record import Record, fail
from csi_conformance.harness.core.failures import CheckFailure
from csi_conformance.harness.core.keys import Keys
from csi_conformance.harness.core.model import CheckResult
from csi_conformance.harness.core.profile import Profile
from csi_conformance.schema import Contract, Method, Readings

if TYPE_CHECKING:
    from csi_conformance.ledger_chain import ChainJudge

__all__ = ["STOP_AFTER", "Answer", "CheckContext", "Memo", "MemoKey", "RunFacts", "answer_value", "body_value",
           "describe"]

T = TypeVar("T")


class _In(Generic[T]):
    """An attribute of the face kept in one of the context's parts: `ctx.contract` is `ctx.facts.contract`."""

    def __init__(self, part: str) -> None:
        self.part = part
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, ctx: Any, owner: type | None = None) -> T:
        if ctx is None:  # read on the class: the descriptor itself
            return self  # type: ignore[return-value]
        return getattr(getattr(ctx, self.part), self.name)

    def __set__(self, ctx: Any, value: T) -> None:
        setattr(getattr(ctx, self.part), self.name, value)  # a fact is frozen: assigning one raises


class CheckContext:
    """Per-run state shared by all checks: one per run, and one per fork of it on a worker thread."""

    contract: _In[Contract] = _In("facts")
    profile: _In[Profile] = _In("facts")
    keys: _In[Keys] = _In("facts")
    seed: _In[int] = _In("facts")
    max_requests: _In[int | None] = _In("facts")
    scenario: _In[str | None] = _In("facts")
    cases: _In[Sequence[Any] | None] = _In("facts")
    placeholder_proofs: _In[bool] = _In("facts")
    chain: _In[ChainJudge | None] = _In("facts")
    reference_partial_trees: _In[frozenset[str]] = _In("facts")
    batched_trees: _In[frozenset[str] | None] = _In("facts")
    readings: _In[Readings] = _In("facts")

    target: _In[Target] = _In("asking")
    reference: _In[Target | None] = _In("asking")
    workers: _In[Any] = _In("asking")
    rng: _In[Random] = _In("asking")

    current: _In[CheckResult | None] = _In("record")
    current_method: _In[str | None] = _In("record")
    last_asked: _In[str | None] = _In("record")
    pending: _In[list[CheckFailure]] = _In("record")

    notes: _In[list[str]] = _In("observed")
    max_context_slot: _In[int | None] = _In("observed")
    previous_context_slot: _In[int | None] = _In("observed")
    readings_seen: _In[dict[str, Counter]] = _In("observed")
    answers_seen: _In[dict[str, int]] = _In("observed")

    def __init__(self, facts: RunFacts, target: Target, on_answer: Judge, *, reference: Target | None = None,
                 on_failure_body: Judge | None = None, notify: Callable[[Any], None] = lambda event: None) -> None:
        self.facts = facts
        self.asking = Asking(target, on_answer, seed=facts.seed, reference=reference,
                             on_failure_body=on_failure_body, notify=notify)
        self.record = Record()
        self.observed = Observed()
        self.memo = Memo()

    def twin(self, asking: Asking) -> CheckContext:
        """A fork asking through `asking`: the same facts and memo, its own record, its own notes."""
        twin = copy.copy(self)
        twin.asking, twin.record, twin.observed = asking, Record(), self.observed.forked()
        return twin

    # -- asking (asking.py) --------------------------------------------------------------
    @property
    def stopped(self) -> str | None:
        """Why the run stopped asking the target (a flood or a hang), once it has."""
        return self.asking.stopped

    @property
    def budget_spent(self) -> bool:
        """Whether `max_requests` ran out: what was not asked then was not examined, so the run is inconclusive."""
        return self.asking.budget_spent

    def call(self, method: str, params: Any = OMIT, *, id: Any = None, path_form: str = "root",
             judge: bool = True) -> Answer:
        """Send one JSON-RPC request; the answer checks judge it unless `judge` is False."""
        return self.asking.call(self, method, params, id=id, path_form=path_form, judge=judge)

    def call_many(self, calls: Sequence[tuple[str, Any]]) -> Iterator[Answer]:
        """Independent calls sent together on the run's workers, their answers given in the order of `calls`."""
        return self.asking.call_many(self, calls)

    def send(self, payload: Any, **kwargs: Any) -> Exchange:
        """Send a raw payload (bad JSON, a batch, no key) for envelope and transport checks."""
        return self.asking.send(self, payload, **kwargs)

    def ask_reference(self, method: str, params: Any = OMIT, *, id: Any) -> Answer:
        """The same JSON-RPC request to the reference server; not judged, not counted against the budget."""
        return self.asking.ask_reference(method, params, id=id)

    def once(self, key: MemoKey[T], compute: Callable[[CheckContext], T]) -> T:
        """`compute(ctx)`, worked out once a run in a fork named after `key` and kept in the memo."""
        return self.asking.once(self, key, compute)

    def fork(self, name: str, target: Target, reference: Target | None) -> CheckContext:
        """A context for the work named `name` on a worker thread asking through `target` (and `reference`)."""
        return self.asking.fork(self, name, target, reference)

    def absorb(self, twin: CheckContext) -> None:
        """Judge what a fork asked, in the order it asked, and keep its notes (on the run's own thread)."""
        self.asking.absorb(self, twin)
        self.observed.absorb(twin.observed)

    def memo_forks(self) -> list[CheckContext]:
        """The forks `once` asked in, by key: absorbed by the run after its checks."""
        return self.asking.memo_forks()

    def fresh_pubkey(self) -> str:
        """A random 32-byte key (byte 0 zero, so it is also a valid new address) no ledger holds."""
        return self.asking.fresh_pubkey()

    # -- the running check (record.py) and the run's observations (observed.py) -------------
    def method(self, name: str) -> Method:
        return self.contract.method(name)

    def fail(self, title: str, **kwargs: Any) -> None:
        """Raise the failure (`record.fail`); an active check's found in a "Method not found" answer makes the
        check N/A instead (`Record.served`)."""
        try:
            fail(title, **kwargs)
        except CheckFailure as failure:
            raise self.record.served(failure) from None

    def defer(self, failure: CheckFailure) -> None:
        """Record a failure and carry on: for checks that judge many independent exchanges (cases)."""
        self.record.defer(failure)

    def examined(self, kind: str, n: int = 1, *, method: str | None = None) -> None:
        """Count what the running check really judged (`Record.examined`): never a request merely sent."""
        self.record.examined(kind, n, method=method)

    def enter(self, result: CheckResult, method: str | None) -> tuple:
        """Make `result` the running check's (the engine calls this); returns what `leave` restores."""
        return self.record.enter(result, method)

    def leave(self, saved: tuple) -> list[CheckFailure]:
        """Restore the check that was running before; returns the failures the leaving check deferred."""
        return self.record.leave(saved)

    def observe(self, ambiguity: str, readings: tuple[str, ...]) -> None:
        """Record that one answer touching `ambiguity` was consistent with `readings`."""
        self.observed.observe(ambiguity, readings)
