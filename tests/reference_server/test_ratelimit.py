"""The token bucket behind HTTP 429 (spec §7-R2), driven by a hand-set clock."""

from __future__ import annotations

import pytest
from csi_conformance.reference_server.ratelimit import TokenBucket


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_burst_is_the_rate_then_refused_with_the_wait() -> None:
    clock = Clock()
    bucket = TokenBucket(3, clock=clock)
    assert [bucket.take() for _ in range(3)] == [0.0, 0.0, 0.0]
    assert bucket.take() == pytest.approx(1 / 3)


def test_refills_at_the_rate_and_caps_at_the_burst() -> None:
    clock = Clock()
    bucket = TokenBucket(2, clock=clock)
    bucket.take(), bucket.take()
    clock.now += 0.5  # one token back
    assert bucket.take() == 0.0
    assert bucket.take() > 0
    clock.now += 3600  # a long idle time refills only up to the burst
    assert [bucket.take() for _ in range(3)] == [0.0, 0.0, pytest.approx(0.5)]


def test_a_rate_below_one_still_allows_one_request() -> None:
    clock = Clock()
    bucket = TokenBucket(0.25, clock=clock)
    assert bucket.burst == 1.0
    assert bucket.take() == 0.0
    assert bucket.take() == pytest.approx(4.0)
    clock.now += 4.0
    assert bucket.take() == 0.0


def test_a_refused_take_costs_nothing() -> None:
    clock = Clock()
    bucket = TokenBucket(1, clock=clock)
    bucket.take()
    for _ in range(5):
        assert bucket.take() > 0
    clock.now += 1.0
    assert bucket.take() == 0.0


@pytest.mark.parametrize(("wait", "header"), [(0.001, 1), (0.999, 1), (1.0, 1), (1.01, 2), (4.0, 4)])
def test_retry_after_is_whole_seconds_at_least_one(wait: float, header: int) -> None:
    assert TokenBucket.retry_after(wait) == header


@pytest.mark.parametrize("rate", [0, -1, float("inf"), float("nan")])
def test_rejects_a_rate_that_is_not_a_positive_number(rate: float) -> None:
    with pytest.raises(ValueError, match="rate"):
        TokenBucket(rate)
