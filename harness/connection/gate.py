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
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator

from csi_conformance.harness.connection.pacing import Pacer

__all__ = ["BudgetSpent", "Gate", "Halted"]


class Halted(Exception):
    """The run stopped asking the target (its reason is the message); nothing more is sent."""


class BudgetSpent(Exception):
    """The request budget is spent: this request was not sent."""


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

    def configure(self, *, concurrency: int = 1, budget: int | None = None) -> None:
        """How many exchanges may be open together, and how many requests may be sent in all (None: no bound)."""
        if concurrency < 1:
            raise ValueError("concurrency must be 1 or more")
        with self._turn:
            self._concurrency, self._budget = concurrency, budget
            self._turn.notify_all()

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
    def exchange(self) -> Iterator[None]:
        """Hold one of the `concurrency` places (one while `careful`) for the whole of an exchange."""
        with self._turn:
            while True:
                self._refuse_if_closed()
                if self._open < (1 if self.careful else self._concurrency):
                    break
                self._turn.wait(0.1)  # woken by a release; the timeout re-reads `careful` and `cancelled`
            self._open += 1
        try:
            yield
        finally:
            with self._turn:
                self._open -= 1
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
