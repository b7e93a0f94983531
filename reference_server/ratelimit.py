"""A token bucket for the server's request rate limit (spec §7-R2: HTTP 429 `{error}`).

The spec states that HTTP 429 exists but not its threshold or window (8-S1), so the rate is a
server option. The bucket refills at `rate` tokens per second up to a burst of `max(1, rate)`:
a steady client at the rate is never refused, and a short burst of one second's worth passes.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable

__all__ = ["TokenBucket"]


class TokenBucket:
    """Thread-safe token bucket; `take()` answers 0.0 when a token was taken, else seconds to wait."""

    def __init__(self, rate: float, *, clock: Callable[[], float] = time.monotonic) -> None:
        if not rate > 0 or math.isinf(rate):
            raise ValueError(f"rate must be a positive finite number of requests per second, got {rate!r}")
        self.rate = float(rate)
        self.burst = max(1.0, self.rate)
        self._clock = clock
        self._tokens = self.burst
        self._stamp = clock()
        self._lock = threading.Lock()

    def take(self) -> float:
        """Take one token; when none is left, return how long until one is (nothing is taken)."""
        with self._lock:
            now = self._clock()
            self._tokens = min(self.burst, self._tokens + (now - self._stamp) * self.rate)
            self._stamp = now
            if self._tokens >= 1.0:
                self._tokens -= 1.0
                return 0.0
            return (1.0 - self._tokens) / self.rate

    @staticmethod
    def retry_after(wait: float) -> int:
        """The `Retry-After` header value for a wait: whole seconds, at least 1."""
        return max(1, math.ceil(wait))
