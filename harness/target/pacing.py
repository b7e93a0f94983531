"""When to send the next request: client-side pacing and 429 back-off."""

from __future__ import annotations

import time
from collections.abc import Callable

from schema.retry_after import parse_retry_after

__all__ = ["Pacer", "backoff_delay"]

_FIRST_BACKOFF = 0.5  # seconds before the first retry when the target gives no Retry-After


class Pacer:
    """Spaces request starts at least 1/rate seconds apart, across every request of a Target.

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
        self.waited = 0.0
        """Seconds spent waiting so far, which the target is not to be charged for."""

    def wait(self) -> None:
        if not self._interval:
            return
        now = self._clock()
        if self._next > now:
            self._sleep(self._next - now)
            self.waited += self._next - now
            now = self._next
        self._next = now + self._interval


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
