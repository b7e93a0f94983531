"""Differential comparison: the same requests to the target and to a reference over the same scenario.

    normalize.py  the allowed differences, listed in one place and named in every diff
    compare.py    an exact structural diff of two JSON values, as side-by-side lines
    replay.py     ask both sides, walk lists with each side's cursors, judge the difference

The checks that use it are in `harness.checks.differential`.
"""

from csi_conformance.harness.differential.compare import MISSING, Difference, differences, render
from csi_conformance.harness.differential.normalize import ALLOWED, NORMALIZERS, READINGS, Normalizer
from csi_conformance.harness.differential.replay import Replay, Side, ask, judge, outcome, send_both, walk

__all__ = [
    "ALLOWED",
    "MISSING",
    "NORMALIZERS",
    "READINGS",
    "Difference",
    "Normalizer",
    "Replay",
    "Side",
    "ask",
    "differences",
    "judge",
    "outcome",
    "render",
    "send_both",
    "walk",
]
