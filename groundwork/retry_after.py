"""How long a server asks to be left alone: the `Retry-After` header of a 429 or 503.

One reader for the harness's back-off and the ingest's Solana fetch, so both honour the same
forms: RFC 9110 §10.2.3 allows delay-seconds and an HTTP-date.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime

__all__ = ["parse_retry_after"]

_DELAY_SECONDS = re.compile(r"[0-9]+")  # ASCII digits only: str.isdigit also takes "²", which float() refuses


def parse_retry_after(value: str | None, *, now: datetime | None = None) -> float | None:
    """Seconds to wait from a `Retry-After` value: delay-seconds, or an HTTP-date (0 when it has passed).

    None when the header is absent or neither form, so the caller keeps its own back-off. `now`
    is the time an HTTP-date is counted from (the current time when not given).
    """
    if value is None:
        return None
    value = value.strip()
    if _DELAY_SECONDS.fullmatch(value):
        return float(value)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - (now or datetime.now(UTC))).total_seconds())
