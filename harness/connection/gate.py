"""The one gate every request of a run passes: how many are on the wire together, how fast, how many in all.

A run asks through several handles on the same target (one per worker thread: a libcurl handle is
not thread-safe); they share one `Gate`. It admits at most `concurrency` exchanges at once (an
exchange is a request with its 429 retries and redirect hops: never more than one of them on the
wire), spaces request starts by the shared `Pacer` (`--rate`), counts every request against the
budget as it is admitted (`--max-requests` is never exceeded, whatever the concurrency), and
refuses every request once the run was told to stop (a flood or a hang) or was interrupted.

While the target is in trouble (the last exchange to end was a timeout, a refusal or a 429 flood)
the gate admits one exchange at a time, as a sequential run would: a target that struggles is not
asked N things at once, and the run stops after the same streak of failures whatever N is.

Each kind of method (`kinds`) may have a bound of its own (proofs: a few at once, lowered when one times
out), and each exchange's `Place` remembers how many others were out beside it. `alone` admits one exchange
with nothing else in flight: a request that timed out in a crowd is asked again there before it is judged.
"""

from __future__ import annotations

import contextlib
import threading
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from csi_conformance.harness.connection.pacing import Pacer
from csi_conformance.harness.core.asked_again import AskedAgain

__all__ = ["BudgetSpent", "Gate", "Halted", "Place"]


class Halted(Exception):
    """The run stopped asking the target (its reason is the message); nothing more is sent."""


class BudgetSpent(Exception):
    """The request budget is spent: this request was not sent."""


@dataclass(eq=False)  # each place is itself: two alike are still two
class Place:
    """One exchange's place at the gate: its kind, and the most other exchanges that were out beside it."""

    kind: str = "lookup"
    crowd: int = 0


class Gate:
    """Admission of the requests of every handle of one run (see the module docstring)."""

    def __init__(self, *, rate: float | None = None, pacer: Pacer | None = None) -> None:
        self.cancelled = threading.Event()
        """Set on Ctrl-C or SIGTERM: requests waiting or on the wire end at once (KeyboardInterrupt)."""
        self._pacer = pacer if pacer is not None else Pacer(rate, sleep=self.sleep)
        self._turn = threading.Condition()
        self._concurrency = 1
        self._budget: int | None = None
        self._open = 0
        self._sent = 0
        self._throttled = 0
        self._halted: str | None = None
        self.careful = False
        """One exchange at a time: the target is in trouble (set by whoever watches the exchanges end)."""
        self._limits: dict[str, int] = {}
        self._kinds: Counter[str] = Counter()
        self._places: list[Place] = []
        self._waiting_alone = 0
        self._alone: Place | None = None
        self.answered = 0
        """Requests that got an HTTP answer (any status): a target that did answer, then refuses, went away."""
        self.asked_again: list[AskedAgain] = []
        """The `AskedAgain` records of the run, in the order the lone attempts ended."""

    def configure(self, *, concurrency: int = 1, budget: int | None = None,
                  limits: Mapping[str, int] | None = None) -> None:
        """How many exchanges may be open together (of each kind in `limits` at most), and how many requests may
        be sent in all (None: no bound)."""
        if concurrency < 1 or any(n < 1 for n in (limits or {}).values()):
            raise ValueError("concurrency must be 1 or more")
        with self._turn:
            self._concurrency, self._budget = concurrency, budget
            self._limits = dict(limits or {})
            self._turn.notify_all()

    def limit(self, kind: str) -> int:
        """Exchanges of `kind` out together at most, now."""
        return min(self._concurrency, self._limits.get(kind, self._concurrency))

    def lower(self, kind: str) -> None:
        """Halve the bound of `kind` (down to one): one of it timed out with others in flight."""
        with self._turn:
            self._limits[kind] = max(1, self.limit(kind) // 2)

    @property
    def halted(self) -> str | None:
        """Why the run stopped asking, once it has."""
        return self._halted

    @property
    def concurrency(self) -> int:
        return self._concurrency

    @property
    def sent(self) -> int:
        """Requests admitted so far, over every handle (redirect hops and 429 retries included)."""
        return self._sent

    @property
    def throttled(self) -> int:
        """HTTP 429 answers received so far, over every handle."""
        return self._throttled

    def count_throttled(self, n: int) -> None:
        with self._turn:
            self._throttled += n

    def count_answered(self, n: int) -> None:
        with self._turn:
            self.answered += n

    def budget_left(self) -> bool:
        return self._budget is None or self._sent < self._budget

    def halt(self, reason: str) -> None:
        """Refuse every request from now on (the run stops asking); the first reason is kept."""
        with self._turn:
            self._halted = self._halted or reason
            self._turn.notify_all()

    def cancel(self) -> None:
        """End what waits and what is on the wire: the run was interrupted."""
        self.cancelled.set()
        with self._turn:
            self._turn.notify_all()

    @contextlib.contextmanager
    def exchange(self, kind: str = "lookup") -> Iterator[Place]:
        """Hold one of the `concurrency` places (one while `careful`, and no more of `kind` than its bound) for the
        whole of an exchange; none is given while an exchange waits to go `alone`."""
        place = Place(kind)
        with self._turn:
            while True:
                self._refuse_if_closed()
                if self._admits(kind):
                    break
                self._turn.wait(0.1)  # woken by a release; the timeout re-reads `careful` and `cancelled`
            self._enter(place)
        try:
            yield place
        finally:
            self._leave(place)

    @contextlib.contextmanager
    def alone(self, kind: str = "lookup") -> Iterator[Place]:
        """Hold the only place: wait until no other exchange is out (new ones wait meanwhile), then keep every
        other exchange out until this one ends. The caller must hold no other place."""
        place = Place(kind)
        with self._turn:
            self._waiting_alone += 1
            try:
                while self._open:  # an exchange out alone counts as open
                    self._refuse_if_closed()
                    self._turn.wait(0.1)
                self._refuse_if_closed()
            finally:
                self._waiting_alone -= 1
            self._alone = place
            self._enter(place)
        try:
            yield place
        finally:
            self._leave(place)

    def record(self, asked: AskedAgain) -> None:
        with self._turn:
            self.asked_again.append(asked)

    def _admits(self, kind: str) -> bool:
        if self._alone is not None or self._waiting_alone:
            return False
        return self._open < (1 if self.careful else self._concurrency) and self._kinds[kind] < self.limit(kind)

    def _enter(self, place: Place) -> None:
        self._open += 1
        self._kinds[place.kind] += 1
        self._places.append(place)
        for other in self._places:
            other.crowd = max(other.crowd, self._open - 1)

    def _leave(self, place: Place) -> None:
        with self._turn:
            self._open -= 1
            self._kinds[place.kind] -= 1
            self._places.remove(place)
            if self._alone is place:
                self._alone = None
            self._turn.notify_all()

    def admit(self) -> float:
        """Admit one request on the wire (within an `exchange`): counted against the budget, then paced.
        The seconds the pacing waited, which the target is not charged for."""
        with self._turn:
            self._refuse_if_closed()
            if not self.budget_left():
                raise BudgetSpent(f"request budget of {self._budget} spent")
            self._sent += 1
        waited = self._pacer.take()
        if self.cancelled.is_set():
            raise KeyboardInterrupt
        return waited

    def sleep(self, seconds: float) -> None:
        """Wait `seconds` (a back-off), ending at once with KeyboardInterrupt when the run is interrupted."""
        if self.cancelled.wait(seconds):
            raise KeyboardInterrupt

    def _refuse_if_closed(self) -> None:
        if self.cancelled.is_set():
            raise KeyboardInterrupt
        if self._halted is not None:
            raise Halted(self._halted)
