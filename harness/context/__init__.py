"""What a check sees: what it may read of the run, what it may ask, and where it writes; nothing of the engine.

`CheckContext` is that face, and holds its parts as plain attributes:

- read: `facts` (frozen, built once from the options: the contract, profile, scenario, chain …), `contract`,
  `keys` (the ledger's keys, given and discovered) and `observed` (what the run has seen: readings, slots);
- ask: `call`, `call_many`, `send`, `ask_reference`, `send_reference`, `once`, `fresh_pubkey`, `random_bytes`,
  and what a check may know of the asking (`has_reference`, `stopped`, `out_of_requests`, `sent_here`, `terms`);
- write: `fail`, `defer`, `examined`, `unreached`, `observe`, `note`, and `memo` (what the run works out once).

The engine's side (making a check the running one, forking onto a worker, the worker pool) is
`context.steering`: no check imports it, and the face forwards nothing to it.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

from csi_conformance.harness.answer import Answer
from csi_conformance.harness.connection import OMIT, Exchange, Target
from csi_conformance.harness.context.asking import STOP_AFTER, Asking, Judge, Terms
from csi_conformance.harness.context.facts import RunFacts
from csi_conformance.harness.context.memo import Memo, MemoKey
from csi_conformance.harness.context.observed import Observed
from csi_conformance.harness.context.received import answer_value, body_value, describe
from csi_conformance.harness.context.record import Record, fail
from csi_conformance.harness.core.failures import CheckFailure
from csi_conformance.harness.core.keys import Keys
from csi_conformance.schema import Method

__all__ = ["STOP_AFTER", "Answer", "CheckContext", "Memo", "MemoKey", "RunFacts", "Terms", "answer_value",
           "body_value", "describe"]

T = TypeVar("T")


class CheckContext:
    """What a check reads, asks and writes: one per run, and one per fork of it on a worker thread."""

    def __init__(self, facts: RunFacts, target: Target, on_answer: Judge, *, keys: Keys | None = None,
                 reference: Target | None = None, on_failure_body: Judge | None = None,
                 notify: Callable[[Any], None] = lambda event: None) -> None:
        self.facts = facts
        self.contract = facts.contract
        self.keys = keys if keys is not None else Keys()
        """The keys to cover: those given (`--keys`) and those of the reference's ledger; discovery adds the rest."""
        self.observed = Observed()
        self.memo = Memo()
        self._asking = Asking(target, on_answer, seed=facts.seed, reference=reference,
                              on_failure_body=on_failure_body, notify=notify)
        self._record = Record()

    def _twin(self, asking: Asking) -> CheckContext:
        """A fork asking through `asking`: the same facts, keys and memo, its own record, its own notes."""
        twin = copy.copy(self)
        twin._asking, twin._record, twin.observed = asking, Record(), self.observed.forked()
        return twin

    # -- what it may know of the asking ----------------------------------------------------
    @property
    def has_reference(self) -> bool:
        """Whether the run compares with a reference server (over `--scenario` or a ledger)."""
        return self._asking.reference is not None

    @property
    def stopped(self) -> str | None:
        """Why the run stopped asking the target (a flood or a hang), once it has."""
        return self._asking.stopped

    @property
    def out_of_requests(self) -> bool:
        """Whether the request budget (`--max-requests`) is used up: what is not asked now is not examined."""
        return self._asking.out_of_requests(self.facts.max_requests)

    @property
    def sent_here(self) -> int:
        """Requests this line of asking (this thread's) has sent: what other work sends at once is its own."""
        return self._asking.target.sent_here

    @property
    def terms(self) -> Terms:
        """The terms the target is asked on: its deadlines and whether an API key is given (never the key)."""
        return self._asking.terms()

    # -- asking ------------------------------------------------------------------------
    def call(self, method: str, params: Any = OMIT, *, id: Any = None, path_form: str = "root",
             judge: bool = True) -> Answer:
        """Send one JSON-RPC request; the answer checks judge it unless `judge` is False."""
        return self._asking.call(self, method, params, id=id, path_form=path_form, judge=judge)

    def call_many(self, calls: Sequence[tuple[str, Any]]) -> Iterator[Answer]:
        """Independent calls sent together on the run's workers, their answers given in the order of `calls`."""
        return self._asking.call_many(self, calls)

    def send(self, payload: Any, **kwargs: Any) -> Exchange:
        """Send a raw payload (bad JSON, a batch, no key) for envelope and transport checks."""
        return self._asking.send(self, payload, **kwargs)

    def ask_reference(self, method: str, params: Any = OMIT, *, id: Any) -> Answer:
        """The same JSON-RPC request to the reference server; not judged, not counted against the budget."""
        return self._asking.ask_reference(method, params, id=id)

    def send_reference(self, payload: Any) -> Exchange:
        """A raw payload to the reference server, as it is; not judged, not counted against the budget."""
        return self._asking.send_reference(payload)

    def once(self, key: MemoKey[T], compute: Callable[[CheckContext], T]) -> T:
        """`compute(ctx)`, worked out once a run in a fork named after `key` and kept in the memo."""
        return self._asking.once(self, key, compute)

    def fresh_pubkey(self) -> str:
        """A random 32-byte key (byte 0 zero, so it is also a valid new address) no ledger holds."""
        return self._asking.fresh_pubkey()

    def random_bytes(self, n: int) -> bytes:
        """`n` bytes from this line of asking's randomness (the seed and the work's name fix them)."""
        return self._asking.rng.randbytes(n)

    # -- where it writes ------------------------------------------------------------------
    def method(self, name: str) -> Method:
        return self.contract.method(name)

    def fail(self, title: str, **kwargs: Any) -> None:
        """Raise the failure (`record.fail`); an active check's found in a "Method not found" answer makes the
        check N/A instead (`Record.served`)."""
        try:
            fail(title, **kwargs)
        except CheckFailure as failure:
            raise self._record.served(failure) from None

    def defer(self, failure: CheckFailure) -> None:
        """Record a failure and carry on: for checks that judge many independent exchanges (cases)."""
        self._record.defer(failure)

    def examined(self, kind: str, n: int = 1, *, method: str | None = None) -> None:
        """Count what the running check really judged (`Record.examined`): never a request merely sent."""
        self._record.examined(kind, n, method=method)

    @property
    def examined_anything(self) -> bool:
        """Whether the running check has examined anything yet (a check that examined nothing is SKIP)."""
        return self._record.examined_anything

    def unreached(self, text: str | None = None) -> list[str]:
        """Record what the running check did not reach (a bound, a list that moved), said with its method in
        every report; returns what it has recorded so far, each once."""
        return self._record.unreached(text)

    def observe(self, ambiguity: str, readings: tuple[str, ...]) -> None:
        """Record that one answer touching `ambiguity` was consistent with `readings`."""
        self.observed.observe(ambiguity, readings)

    def note(self, text: str) -> None:
        """A remark about the run as a whole, copied into its result (after those of the work absorbed before)."""
        self.observed.notes.append(text)
