"""How a run asks: the target and the reference, the run's gate and stop, forks on worker threads.

Every call made through `CheckContext.call` is an `Answer`, and every answer is also handed to the
answer checks, so a request made by any check is judged by all of them. With a reference
(`csi run --scenario`), `ask_reference` puts the same request to the reference server; its answers
are never judged, only compared with.

A run's independent work (a check on one method, a discovery step) runs on worker threads, each in a
`fork` of the context: its own handle on the target, its own random numbers and request ids (named
after the work, so the same seed sends the same requests whatever the concurrency), and its answers
kept until the run's own thread `absorb`s them, in the catalogue's order: the answer checks judge
every answer there, one at a time, in the same order at any concurrency.
"""

from __future__ import annotations

import copy
import dataclasses
import random
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any, Protocol, Self, TypeVar

from csi_conformance.groundwork.base58 import b58encode
from csi_conformance.harness.answer import Answer
from csi_conformance.harness.connection import OMIT, Exchange, Target
from csi_conformance.harness.connection.body import parse_json
from csi_conformance.harness.connection.gate import BudgetSpent, Halted
from csi_conformance.harness.connection.kinds import Deadlines
from csi_conformance.harness.context.facts import RunFacts
from csi_conformance.harness.context.memo import Memo, MemoKey
from csi_conformance.harness.context.observed import Observed
from csi_conformance.harness.context.record import Record
from csi_conformance.harness.core.events import TargetThrottled
from csi_conformance.harness.core.failures import NotApplicable, Skip

__all__ = ["STOP_AFTER", "Asking", "Pool", "Terms"]

T = TypeVar("T")


class Asker(Protocol):
    """What asking needs of the context it asks for (`CheckContext`, which holds an `Asking`)."""

    facts: RunFacts
    _asking: Asking
    _record: Record
    observed: Observed
    memo: Memo

    def _twin(self, asking: Asking) -> Self: ...

    def call(self, method: str, params: Any = ..., *, id: Any = None, path_form: str = "root",
             judge: bool = True) -> Answer: ...


C = TypeVar("C", bound=Asker)


class Pool(Protocol):
    """The run's worker threads, as asking uses them (the engine's `Workers` is one): `submit` runs a piece of
    work on a worker with that worker's handles on the target and the reference; `results` gives the outcomes
    of what was submitted, in the order given."""

    def submit(self, work: Callable[[Target, Target | None], T]) -> Future[T]: ...

    def results(self, futures: Sequence[Future[T]]) -> Iterator[T]: ...


@dataclass(frozen=True)
class Terms:
    """The terms the target is asked on, as a check may read them: the deadline of each method (`Deadlines`),
    the whole-request timeout, and whether an API key is given (never the key itself)."""

    timeout: float
    deadlines: Deadlines
    api_key_given: bool

STOP_AFTER = {"rate-limited": 3, "timeout": 5, "unreachable": 3}
"""Consecutive transport failures of one kind after which a run stops asking the target."""
UNJUDGED = "rate-limited"
"""The end of an exchange in which the target judged nothing (429 after every retry): the answer checks see it
(transport.answered reports it), but the check that asked gets a `Skip`, never an answer to judge. Else, which
check's request met the flood (a race between threads) would decide which check reported a fault."""

Judge = Callable[[Any, Answer], None]
"""An answer check's entry: handed the context that asked and its answer."""


@dataclass
class _Shared:
    """What every fork of a run's asking shares: why it stopped asking, and the streak of failures leading there."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    streak: tuple[str | None, int] = (None, 0)
    stopped: str | None = None
    budget_spent: bool = False
    unjudged: int = 0
    """Checks' requests the target left unjudged (`UNJUDGED`): what they asked was not examined."""
    memos: list[Any] = field(default_factory=list)
    """The forks that worked out a memo that asks the target (`once`), to be judged after every check."""


class Asking:
    """One line of asking (the run's thread, or one piece of work on a worker): its handles, ids and randomness.

    Its methods take the context they ask for: the answers are judged with it, and what the running
    check asked is recorded on it.
    """

    def __init__(self, target: Target, on_answer: Judge, *, seed: int, reference: Target | None = None,
                 on_failure_body: Judge | None = None, notify: Callable[[Any], None] = lambda event: None) -> None:
        self.target = target
        self.reference = reference
        """The reference server over the scenario the target loaded (`--scenario`); None without one."""
        self.on_answer = on_answer
        self.on_failure_body = on_failure_body
        """Hands the answer checks that judge failure bodies (§7) each HTTP 429 answer the client retried after."""
        self.notify = notify
        """Tells the faces what happens as it happens (the target throttling the run, say)."""
        self.workers: Pool | None = None
        """The run's worker threads: `call_many` sends on them; None asks in turn."""
        self.rng = random.Random(seed)
        self._ids = "csi-"
        self._counter = 0
        self._throttle_said = 0
        self._asked: list[tuple] | None = None
        """In a fork: what it asked, judged when the run's thread absorbs it."""
        self._shared = _Shared()

    @property
    def stopped(self) -> str | None:
        """Why the run stopped asking the target (a flood or a hang), once it has."""
        return self._shared.stopped

    @property
    def budget_spent(self) -> bool:
        """Whether `max_requests` ran out: what was not asked then was not examined, so the run is inconclusive."""
        return self._shared.budget_spent

    @property
    def unjudged(self) -> int:
        """Checks' requests the target left unjudged: the run is inconclusive when there are any."""
        return self._shared.unjudged

    # -- forks on worker threads -------------------------------------------------------
    def fork(self, ctx: C, name: str, target: Target, reference: Target | None) -> C:
        """A context for the work named `name` on a worker thread asking through `target` (and `reference`):
        the run's facts, memo and stop are shared; its randomness and request ids follow from the seed and
        `name`; what it asks is judged when `absorb`ed."""
        twin = copy.copy(self)
        twin.target, twin.reference, twin._asked = target, reference, []
        twin.rng, twin._ids, twin._counter = random.Random(f"{ctx.facts.seed}/{name}"), f"csi-{name}-", 0
        return ctx._twin(twin)

    def absorb(self, ctx: C, twin: C) -> None:
        """Judge what a fork asked, in the order it asked, and keep its notes (on the run's own thread)."""
        asked, twin._asking._asked = twin._asking._asked or [], []
        for entry in asked:
            self._judge(ctx, *entry)
        ctx.observed.absorb(twin.observed)

    def once(self, ctx: C, key: MemoKey[T], compute: Callable[[C], T]) -> T:
        """`compute(ctx)`, kept in the memo under `key`: worked out once a run by the first check that wants it,
        the others waiting for it. It asks in a fork named after `key` (its request ids and randomness), judged
        after every check (`memo_forks`), so which check came first changes neither the requests nor the
        findings."""
        def in_fork() -> T:
            twin = self.fork(ctx, key.name, self.target, self.reference)
            try:
                return compute(twin)
            finally:
                with self._shared.lock:
                    self._shared.memos.append(twin)

        return ctx.memo.once(key, in_fork)

    def memo_forks(self) -> list[Any]:
        """The forks `once` asked in, by key: absorbed by the run after its checks."""
        with self._shared.lock:
            forks, self._shared.memos = self._shared.memos, []
        return sorted(forks, key=lambda twin: twin._asking._ids)

    def call_many(self, ctx: C, calls: Sequence[tuple[str, Any]]) -> Iterator[Answer]:
        """Independent calls, sent together on the run's workers (at most its concurrency at once), their answers
        judged and given in the order of `calls`; one the run could no longer make raises its `Skip` there."""
        if self.workers is None:
            yield from (self.call(ctx, method, params) for method, params in calls)
            return
        ids = []
        for _ in calls:
            self._counter += 1
            ids.append(f"{self._ids}{self._counter}")

        def one(index: int, method: str, params: Any) -> Callable[[Target, Target | None], Any]:
            def asked(target: Target, reference: Target | None) -> tuple[C, Answer | Skip]:
                twin = self.fork(ctx, ids[index], target, reference)
                try:
                    return twin, twin.call(method, params, id=ids[index])
                except Skip as skip:
                    return twin, skip
            return asked

        futures = [self.workers.submit(one(index, method, params)) for index, (method, params) in enumerate(calls)]
        for twin, answer in self.workers.results(futures):
            self.absorb(ctx, twin)
            if isinstance(answer, Skip):
                raise answer
            yield answer

    # -- asking the target -------------------------------------------------------------
    def call(self, ctx: C, method: str, params: Any = OMIT, *, id: Any = None, path_form: str = "root",
             judge: bool = True) -> Answer:
        """Send one JSON-RPC request; the answer checks judge it unless `judge` is False."""
        self._spend(ctx.facts.max_requests)
        self._counter += 1
        request_id = f"{self._ids}{self._counter}" if id is None else id
        exchange = self._through_gate(lambda: self.target.call(method, params, id=request_id, path_form=path_form))
        self._watch(exchange)
        answer = Answer(method, None if params is OMIT else params, exchange)
        ctx._record.last_asked = method
        if self._asked is None:
            self._judge(ctx, method, params, answer, judge)
        else:
            ctx.observed.slot_seen(answer.context_slot)
            self._asked.append((method, params, answer, judge))
        self._unjudged(ctx, exchange, method)
        return answer

    def send(self, ctx: C, payload: Any, **kwargs: Any) -> Exchange:
        """Send a raw payload (bad JSON, a batch, no key) for envelope and transport checks."""
        self._spend(ctx.facts.max_requests)
        exchange = self._through_gate(lambda: self.target.send(payload, **kwargs))
        self._watch(exchange)
        entry = (exchange.method, OMIT, Answer(exchange.method or "(malformed request)", None, exchange), None)
        if self._asked is None:
            self._judge(ctx, *entry)
        else:
            self._asked.append(entry)
        self._unjudged(ctx, exchange, exchange.method or "a raw payload")
        return exchange

    def ask_reference(self, method: str, params: Any = OMIT, *, id: Any) -> Answer:
        """The same JSON-RPC request to the reference server; not judged, not counted against the budget."""
        if self.reference is None:
            raise NotApplicable("no reference to compare with: give --scenario (or a ledger)")
        return Answer(method, None if params is OMIT else params, self.reference.call(method, params, id=id))

    def send_reference(self, payload: Any) -> Exchange:
        """A raw payload to the reference server, as it is; not judged, not counted against the budget."""
        if self.reference is None:
            raise Skip("no reference: give --scenario to compare with the reference server")
        return self.reference.send(payload)

    def out_of_requests(self, max_requests: int | None) -> bool:
        """Whether the target has been sent `max_requests` already (None: no budget)."""
        return max_requests is not None and self.target.requests_sent >= max_requests

    def terms(self) -> Terms:
        return Terms(self.target.policy.timeout, self.target.deadlines, bool(self.target.api_key))

    def fresh_pubkey(self) -> str:
        """A random 32-byte key (byte 0 zero, so it is also a valid new address) no ledger holds."""
        return b58encode(b"\x00" + self.rng.randbytes(31))

    def _judge(self, ctx: C, method: str | None, params: Any, answer: Answer, judge: bool | None) -> None:
        """Hand an answer to the checks of failure bodies and (unless `judge` is False) to the answer checks;
        `judge` None: a raw `send`, whose 4xx and 5xx answers only the checks of failure bodies judge."""
        self._throttled(ctx, answer.method, params, answer.exchange)
        if judge is None:
            if self.on_failure_body is not None and not answer.exchange.error and (answer.status or 0) >= 400:
                # §7 gives the body of a 429 and a 500 whatever provoked it: a malformed request's too
                self.on_failure_body(ctx, answer)
            return
        ctx.observed.slot_seen(answer.context_slot)
        if judge:
            self.on_answer(ctx, answer)

    def _unjudged(self, ctx: C, exchange: Exchange, asked: str) -> None:
        """A `Skip` for the check whose request the target left unjudged (`UNJUDGED`), counted for the run; the
        run's own requests (preflight, discovery) get their answer, and deal with it as before."""
        if exchange.error_kind == UNJUDGED and ctx._record.current is not None:
            with self._shared.lock:
                self._shared.unjudged += 1
            raise Skip(f"{asked} was not judged by the target: {exchange.error}")

    def _spend(self, max_requests: int | None) -> None:
        if self.stopped:
            raise Skip(self.stopped)
        if self.out_of_requests(max_requests):
            self._shared.budget_spent = True
            raise Skip(f"request budget of {max_requests} spent")

    def _through_gate(self, ask: Callable[[], Exchange]) -> Exchange:
        """`ask()`; the run's gate refusing it (stopped, the budget spent while it waited) is a `Skip`."""
        try:
            return ask()
        except Halted as halted:
            raise Skip(str(halted)) from None
        except BudgetSpent as spent:
            self._shared.budget_spent = True
            raise Skip(str(spent)) from None

    def _throttled(self, ctx: C, method: str, params: Any, exchange: Exchange) -> None:
        """The 429 answers the client retried after are answers too: §7 gives their body, so the checks of
        failure bodies judge each (a malformed request's too); and the faces hear of the throttling as it grows
        (1, 10, 100, … 429s)."""
        if self.on_failure_body is not None:
            for throttled in exchange.throttled:
                retried = dataclasses.replace(exchange, status=429, headers=throttled.headers, body=throttled.body,
                                              json=parse_json(throttled.body, throttled.headers.get("content-type"))[0],
                                              error=None, error_kind=None, retries=0, throttled=())
                self.on_failure_body(ctx, Answer(method, None if params is OMIT else params, retried))
        total = self.target.throttled  # counted over every thread: each power of ten is said once it is passed
        while total and total >= max(1, self._throttle_said * 10):
            self._throttle_said = max(1, self._throttle_said * 10)
            self.notify(TargetThrottled(self._throttle_said, self.target.requests_sent))

    def _watch(self, exchange: Exchange) -> None:
        """Stop asking a target that keeps failing the same way: a flood or a hang must end the run
        in bounded time, with what was found so far, not retry every remaining request."""
        kind = exchange.error_kind if exchange.error_kind in STOP_AFTER else None
        shared = self._shared
        with shared.lock:  # exchanges are counted as they end, whichever thread asked
            same = kind is not None and kind == shared.streak[0]
            shared.streak = (kind, shared.streak[1] + 1 if same else int(kind is not None))
            self.target.gate.careful = kind is not None  # a target in trouble is asked one thing at a time
            if kind and shared.streak[1] >= STOP_AFTER[kind] and shared.stopped is None:
                shared.stopped = f"stopped asking: {shared.streak[1]} requests in a row ended with {exchange.error}"
                self.target.gate.halt(shared.stopped)
