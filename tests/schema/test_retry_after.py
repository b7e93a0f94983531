"""parse_retry_after: both RFC 9110 forms, and nothing else."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import pytest
from csi_conformance.groundwork.retry_after import parse_retry_after

NOW = datetime(2025, 3, 1, 12, 0, 0, tzinfo=UTC)


def test_delay_seconds() -> None:
    assert parse_retry_after("3") == 3.0
    assert parse_retry_after(" 120 ") == 120.0
    assert parse_retry_after("0") == 0.0


def test_http_date_counts_from_now_and_a_past_date_means_now() -> None:
    assert parse_retry_after(format_datetime(NOW + timedelta(seconds=90), usegmt=True), now=NOW) == 90.0
    assert parse_retry_after("Sat, 01 Mar 2025 12:00:05 GMT", now=NOW) == 5.0
    assert parse_retry_after("Saturday, 01-Mar-25 12:00:05 GMT", now=NOW) == 5.0  # RFC 850, obsolete but allowed
    assert parse_retry_after("Sat Mar  1 12:00:05 2025", now=NOW) == 5.0  # asctime, read as GMT
    assert parse_retry_after("Sat, 01 Mar 2025 11:00:00 GMT", now=NOW) == 0.0


@pytest.mark.parametrize("value", [None, "", "soon", "1.5", "-3", "nan", "inf", "²", "١٢", "3 s"])
def test_anything_else_is_none(value: str | None) -> None:
    """Not delay-seconds (ASCII digits only) and not an HTTP-date: the caller keeps its own back-off."""
    assert parse_retry_after(value, now=NOW) is None
