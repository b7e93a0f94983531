"""What a check sees: the contract, the profile, the discovered keys, and a way to ask the target.

Every call made through `CheckContext.call` is an `Answer`, and every answer is also handed
to the answer checks, so a request made by any check is judged by all of them. With a
reference (`csi run --scenario`), `CheckContext.ask_reference` puts the same request to the
reference server; its answers are never judged, only compared with.

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
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from csi_conformance.groundwork.jsonio import dumps
from csi_conformance.harness.answer import Answer
from csi_conformance.harness.connection import NOT_JSON, OMIT, Exchange, Target
from csi_conformance.harness.connection.body import parse_json
from csi_conformance.harness.connection.gate import BudgetSpent, Halted
from csi_conformance.harness.core.events import TargetThrottled
from csi_conformance.harness.core.failures import CheckFailure, NotApplicable, Skip
from csi_conformance.harness.core.keys import Keys
from csi_conformance.harness.core.model import Basis, CheckResult
from csi_conformance.harness.core.profile import Profile
from csi_conformance.harness.core.values import CLIP_CHARS, clip
from csi_conformance.ledger_crypto import b58encode
from csi_conformance.schema import Contract, Method

if TYPE_CHECKING:  # replaying a chain needs LiteSVM: imported where a run has one, not by every run
    from csi_conformance.ledger_chain import Chain

__all__ = ["STOP_AFTER", "Answer", "CheckContext", "answer_value", "body_value", "describe"]

T = TypeVar("T")

STOP_AFTER = {"rate-limited": 3, "timeout": 5, "unreachable": 3}
"""Consecutive transport failures of one kind after which a run stops asking the target."""


@dataclass
class _Shared:
    """What every fork of a run's context shares: why it stopped asking, and the streak of failures leading there."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    streak: tuple[str | None, int] = (None, 0)
    stopped: str | None = None
    budget_spent: bool = False
    memo_locks: dict[str, threading.Lock] = field(default_factory=dict)
    memos: list[CheckContext] = field(default_factory=list)
    """The forks that worked out a memo that asks the target (`once`), to be judged after every check."""


@dataclass
class CheckContext:
    """Per-run state shared by all checks; one instance per run."""

    contract: Contract
    profile: Profile
    target: Target
    keys: Keys
    seed: int
    on_answer: Callable[[CheckContext, Answer], None]
    max_requests: int | None = None
    cache: dict[str, Any] = field(default_factory=dict)
    max_context_slot: int | None = None
    """Highest `context.slot` answered so far in the run (every call updates it)."""
    previous_context_slot: int | None = None
    """The highest before the latest answer, so answer checks can see a slot going backwards."""
    readings_seen: dict[str, Counter] = field(default_factory=dict)
    answers_seen: dict[str, int] = field(default_factory=dict)
    reference: Target | None = None
    """The reference server over the scenario the target loaded (`--scenario`); None without one."""
    scenario: str | None = None
    """That scenario's name or file, as given."""
    cases: Sequence[Any] | None = None
    """Golden cases to replay (`cases.Case`); None means those of `scenario` in the cases folder."""
    notes: list[str] = field(default_factory=list)
    """Remarks about the run as a whole, copied into the result."""
    placeholder_proofs: bool = False
    """The target is the bundled reference without a prover: its compressedProof values are placeholders."""
    on_failure_body: Callable[[CheckContext, Answer], None] | None = None
    """Hands the answer checks that judge failure bodies (§7) each HTTP 429 answer the client retried after."""
    notify: Callable[[Any], None] = lambda event: None
    """Tells the faces what happens as it happens (the target throttling the run, say)."""
    chain: Chain | None = None
    """The chain the target indexed (`--chain`), replayed into LiteSVM: the onchain checks judge its proofs there."""
    reference_partial_trees: frozenset[str] = frozenset()
    batched_trees: frozenset[str] | None = None
    """The batched (v2) state trees of the ledger compared over; None when no ledger is known."""
    """Trees (base58) of which the reference saw only part (a ledger slice from mid-chain): its roots, root indices
    and proof paths for them are no truth, so no comparison of them is made (and the reports say so)."""
    pending: list[CheckFailure] = field(default_factory=list)
    """Failures the running check recorded without stopping (`defer`); the engine turns them into findings."""
    workers: Any = None
    """The run's worker threads (`harness.engine.workers.Workers`): `call_many` sends on them; None asks in turn."""
    current: CheckResult | None = None
    """The result of the check running now (an answer check while it judges one answer): `examined` counts there."""
    current_method: str | None = None
    last_asked: str | None = None
    """The method the running check asked last: what it examined is counted there when it names no method."""
    _counter: int = 0
    _throttle_said: int = 0
    _shared: _Shared = field(default_factory=_Shared)
    _ids: str = "csi-"
    _asked: list[tuple] | None = None
    """In a fork: what it asked, judged when the run's thread absorbs it."""

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        self.readings = self.profile.readings(self.contract)

    @property
    def stopped(self) -> str | None:
        """Why the run stopped asking the target (a flood or a hang), once it has."""
        return self._shared.stopped

    @property
    def budget_spent(self) -> bool:
        """Whether `max_requests` ran out: what was not asked then was not examined, so the run is inconclusive."""
        return self._shared.budget_spent

    # -- forks on worker threads -------------------------------------------------------
    def fork(self, name: str, target: Target, reference: Target | None) -> CheckContext:
        """A context for the work named `name` on a worker thread asking through `target` (and `reference`):
        the keys, the cache and the run's stop are shared; its randomness and request ids follow from the seed
        and `name`; what it asks is judged when `absorb`ed."""
        twin = copy.copy(self)
        twin.target, twin.reference, twin.notes, twin.pending, twin._asked = target, reference, [], [], []
        twin.current = twin.current_method = twin.last_asked = None
        twin.rng, twin._ids, twin._counter = random.Random(f"{self.seed}/{name}"), f"csi-{name}-", 0
        return twin

    def absorb(self, twin: CheckContext) -> None:
        """Judge what a fork asked, in the order it asked, and keep its notes (on the run's own thread)."""
        asked, twin._asked = twin._asked or [], []
        for entry in asked:
            self._judge(*entry)
        self.notes += twin.notes

    def once(self, key: str, compute: Callable[[CheckContext], T]) -> T:
        """`compute(ctx)`, kept in `cache[key]`: worked out once a run by the first check that wants it, the others
        waiting for it. It asks in a fork named after `key` (its request ids and randomness), judged after every
        check (`memo_forks`), so which check came first changes neither the requests nor the findings."""
        shared = self._shared
        with shared.lock:
            lock = shared.memo_locks.setdefault(key, threading.Lock())
        with lock:
            if key not in self.cache:
                twin = self.fork(key, self.target, self.reference)
                try:
                    self.cache[key] = compute(twin)
                finally:
                    with shared.lock:
                        shared.memos.append(twin)
            return self.cache[key]

    def memo_forks(self) -> list[CheckContext]:
        """The forks `once` asked in, by key: absorbed by the run after its checks."""
        with self._shared.lock:
            forks, self._shared.memos = self._shared.memos, []
        return sorted(forks, key=lambda twin: twin._ids)

    def call_many(self, calls: Sequence[tuple[str, Any]]) -> Iterator[Answer]:
        """Independent calls, sent together on the run's workers (at most its concurrency at once), their answers
        judged and given in the order of `calls`; one the run could no longer make raises its `Skip` there."""
        if self.workers is None:
            yield from (self.call(method, params) for method, params in calls)
            return
        ids = []
        for _ in calls:
            self._counter += 1
            ids.append(f"{self._ids}{self._counter}")

        def one(index: int, method: str, params: Any) -> Callable[[Target, Target | None], Any]:
            def asked(target: Target, reference: Target | None) -> tuple[CheckContext, Answer | Skip]:
                twin = self.fork(ids[index], target, reference)
                try:
                    return twin, twin.call(method, params, id=ids[index])
                except Skip as skip:
                    return twin, skip
            return asked

        futures = [self.workers.submit(one(index, method, params)) for index, (method, params) in enumerate(calls)]
        for twin, answer in self.workers.results(futures):
            self.absorb(twin)
            if isinstance(answer, Skip):
                raise answer
            yield answer

    # -- asking the target -------------------------------------------------------------
    def call(self, method: str, params: Any = OMIT, *, id: Any = None, path_form: str = "root",
             judge: bool = True) -> Answer:
        """Send one JSON-RPC request; the answer checks judge it unless `judge` is False."""
        self._spend()
        self._counter += 1
        request_id = f"{self._ids}{self._counter}" if id is None else id
        exchange = self._through_gate(lambda: self.target.call(method, params, id=request_id, path_form=path_form))
        self._watch(exchange)
        answer = Answer(method, None if params is OMIT else params, exchange)
        self.last_asked = method
        if self._asked is None:
            self._judge(method, params, answer, judge)
        else:
            self._slot_seen(answer)
            self._asked.append((method, params, answer, judge))
        return answer

    def _judge(self, method: str | None, params: Any, answer: Answer, judge: bool | None) -> None:
        """Hand an answer to the checks of failure bodies and (unless `judge` is False) to the answer checks;
        `judge` None: a raw `send`, whose 4xx and 5xx answers only the checks of failure bodies judge."""
        self._throttled(answer.method, params, answer.exchange)
        if judge is None:
            if self.on_failure_body is not None and not answer.exchange.error and (answer.status or 0) >= 400:
                # §7 gives the body of a 429 and a 500 whatever provoked it: a malformed request's too
                self.on_failure_body(self, answer)
            return
        self._slot_seen(answer)
        if judge:
            self.on_answer(self, answer)

    def _slot_seen(self, answer: Answer) -> None:
        self.previous_context_slot = self.max_context_slot
        slot = answer.context_slot
        if slot is not None and (self.max_context_slot is None or slot > self.max_context_slot):
            self.max_context_slot = slot

    def ask_reference(self, method: str, params: Any = OMIT, *, id: Any) -> Answer:
        """The same JSON-RPC request to the reference server; not judged, not counted against the budget."""
        if self.reference is None:
            raise NotApplicable("no reference to compare with: give --scenario (or a ledger)")
        return Answer(method, None if params is OMIT else params, self.reference.call(method, params, id=id))

    def send(self, payload: Any, **kwargs: Any) -> Exchange:
        """Send a raw payload (bad JSON, a batch, no key) for envelope and transport checks."""
        self._spend()
        exchange = self._through_gate(lambda: self.target.send(payload, **kwargs))
        self._watch(exchange)
        entry = (exchange.method, OMIT, Answer(exchange.method or "(malformed request)", None, exchange), None)
        if self._asked is None:
            self._judge(*entry)
        else:
            self._asked.append(entry)
        return exchange

    def _spend(self) -> None:
        if self.stopped:
            raise Skip(self.stopped)
        if self.max_requests is not None and self.target.requests_sent >= self.max_requests:
            self._shared.budget_spent = True
            raise Skip(f"request budget of {self.max_requests} spent")

    def _through_gate(self, ask: Callable[[], Exchange]) -> Exchange:
        """`ask()`; the run's gate refusing it (stopped, the budget spent while it waited) is a `Skip`."""
        try:
            return ask()
        except Halted as halted:
            raise Skip(str(halted)) from None
        except BudgetSpent as spent:
            self._shared.budget_spent = True
            raise Skip(str(spent)) from None

    def _throttled(self, method: str, params: Any, exchange: Exchange) -> None:
        """The 429 answers the client retried after are answers too: §7 gives their body, so the checks of
        failure bodies judge each (a malformed request's too); and the faces hear of the throttling as it grows
        (1, 10, 100, … 429s)."""
        if self.on_failure_body is not None:
            for throttled in exchange.throttled:
                retried = dataclasses.replace(exchange, status=429, headers=throttled.headers, body=throttled.body,
                                              json=parse_json(throttled.body, throttled.headers.get("content-type"))[0],
                                              error=None, error_kind=None, retries=0, throttled=())
                self.on_failure_body(self, Answer(method, None if params is OMIT else params, retried))
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

    # -- judging -----------------------------------------------------------------------
    def method(self, name: str) -> Method:
        return self.contract.method(name)

    def fail(self, title: str, *, expected: Any, received: Any, answer: Answer | None = None,
             basis: Basis | None = None, clauses: tuple[str, ...] = (), path: str | None = None,
             kind: type[CheckFailure] = CheckFailure, detail: dict[str, Any] | None = None) -> None:
        """Raise the failure; `clauses` narrows the check's clauses to those this answer broke, `path`
        names the wrong member, `kind` says what kind of failure it is (a rule in words by default),
        `detail` adds facts a reader needs beside expected and received."""
        raise kind(title, expected=expected, received=received, answer=answer, basis=basis,
                   method=answer.method if answer else None, clauses=clauses, path=path, detail=detail)

    def defer(self, failure: CheckFailure) -> None:
        """Record a failure and carry on: for checks that judge many independent exchanges (cases)."""
        self.pending.append(failure)

    def examined(self, kind: str, n: int = 1, *, method: str | None = None) -> None:
        """Count what the running check really judged (answers, accounts, proofs, pages, items …).

        A check that examined nothing is SKIP, never PASS: call this after the comparison or rule
        was applied, not when a request was merely sent. What was examined is counted on `method`, else on
        the method the check runs for, else on the method it asked last (so a check of the whole target
        still says which methods it examined).
        """
        if self.current is None or n <= 0:
            return
        self.current.examined[kind] = self.current.examined.get(kind, 0) + n
        method = method or self.current_method or self.last_asked
        if method:
            self.current.examined_methods.add(method)

    def enter(self, result: CheckResult, method: str | None) -> tuple:
        """Make `result` the running check's (the engine calls this); returns what `leave` restores."""
        saved = (self.current, self.current_method, self.pending, self.last_asked)
        self.current, self.current_method, self.pending, self.last_asked = result, method, [], None
        return saved

    def leave(self, saved: tuple) -> list[CheckFailure]:
        """Restore the check that was running before; returns the failures the leaving check deferred."""
        deferred = self.pending
        self.current, self.current_method, self.pending, self.last_asked = saved
        return deferred

    def observe(self, ambiguity: str, readings: tuple[str, ...]) -> None:
        """Record that one answer touching `ambiguity` was consistent with `readings`."""
        self.readings_seen.setdefault(ambiguity, Counter()).update(readings)
        self.answers_seen[ambiguity] = self.answers_seen.get(ambiguity, 0) + 1

    def fresh_pubkey(self) -> str:
        """A random 32-byte key (byte 0 zero, so it is also a valid new address) no ledger holds."""
        return b58encode(b"\x00" + self.rng.randbytes(31))


def describe(answer: Answer, limit: int = 300) -> str:
    """A one-line account of an answer for `Received:`."""
    ex = answer.exchange
    if ex.error:
        return f"transport error: {ex.error}"
    if ex.json is NOT_JSON:
        return f"HTTP {ex.status}, not JSON ({ex.json_error})"
    if answer.error is not None:
        return f"HTTP {ex.status}, error {answer.error.get('code')}: {str(answer.error.get('message'))[:limit]}"
    text = dumps(answer.body)
    return f"HTTP {ex.status}, {text[:limit]}{'…' if len(text) > limit else ''}"


def answer_value(answer: Answer) -> Any:
    """What an answer holds where a check looks first, as a JSON value for a finding's `received`: the
    error object of an error, the result of a success, else what came instead (a transport error, a
    body that is not JSON, an object that is neither)."""
    if answer.exchange.error:
        return {"transport_error": answer.exchange.error}
    if answer.exchange.json is NOT_JSON:
        return body_value(answer.exchange)
    if answer.error is not None:
        return clip(answer.error)
    if answer.has_result:
        return clip(answer.result)
    return clip(answer.body)


def body_value(exchange: Exchange) -> Any:
    """What an answer's body held, as a JSON value: the JSON itself (cut), or for a body that is not JSON
    its status, why it is not JSON and its first characters."""
    if exchange.json is NOT_JSON:
        return {"http_status": exchange.status, "not_json": exchange.json_error,
                "body": clip(exchange.body[:CLIP_CHARS].decode("utf-8", "replace"))}
    return clip(exchange.json)
