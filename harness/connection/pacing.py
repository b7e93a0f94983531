"""When to send the next request: client-side pacing and 429 back-off."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from csi_conformance.groundwork.retry_after import parse_retry_after

__all__ = ["Pacer", "backoff_delay"]

_FIRST_BACKOFF = 0.5  # seconds before the first retry when the target gives no Retry-After


class Pacer:
    """Spaces request starts at least 1/rate seconds apart, across every request of a run (every thread's).

    `clock` and `sleep` are the time it reads and how it waits; tests replace them to check the
    schedule without depending on how fast the machine is.
    """

    def __init__(
        self,
        rate: float | None,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self._interval = 1.0 / rate if rate else 0.0
        self._clock, self._sleep = clock, sleep
        self._next = 0.0
        self._lock = threading.Lock()
        self.waited = 0.0
        """Seconds spent waiting so far, which the target is not to be charged for."""

    def wait(self) -> None:
        self.take()

    def take(self) -> float:
        """Take the next start (threads take turns in the order they ask) and wait for it; the seconds waited."""
        if not self._interval:
            return 0.0
        with self._lock:
            now = self._clock()
            delay = max(0.0, self._next - now)
            self._next = max(now, self._next) + self._interval
            self.waited += delay
        if delay:
            self._sleep(delay)
        return delay


def backoff_delay(retry_after: str | None, attempt: int, cap: float) -> float:
    """Seconds to wait before retry number `attempt` (0-based) after a 429, at most `cap`.

    `Retry-After` is honoured in both RFC 9110 forms, delay-seconds and HTTP-date; when it is
    absent or unreadable the wait doubles from 0.5 s. The spec names HTTP 429 (§7, §8) but no
    back-off; this is common HTTP practice.
    """
    delay = _FIRST_BACKOFF * 2**attempt
    stated = parse_retry_after(retry_after)
    if stated is not None:
        delay = stated
    return max(0.0, min(cap, delay))
