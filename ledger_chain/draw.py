"""Drawing the next operation with hypothesis, the same for the same seed wherever it runs.

Each step is drawn over the model as it is after the steps before (what exists depends on what
the programs did), by a strategy built from `kinds.KINDS`: first which kind (a kind not drawn
yet is preferred three times in four, so a short chain still shows every kind it can reach;
otherwise by weight), then its plan, then how many slots the chain moves on before it (0: the
same block).

Hypothesis's own backend mixes in, a few times in a hundred, constants it reads from whatever
local modules happen to be imported: the same seed then draws differently under pytest, from the
command line or from an installed wheel (measured). So the strategies run on a backend of the
kit's own (`SeededBackend`, hypothesis's alternative-backend interface): every choice comes from
a `random.Random` seeded with the step's seed, and nothing else.
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Mapping, Set
from typing import Any, ClassVar

from csi_conformance.ledger_chain.draw_parts import Users
from csi_conformance.ledger_chain.kinds import KINDS, Kind
from csi_conformance.ledger_chain.model import Model
from csi_conformance.ledger_chain.operations import Operation
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis.internal.conjecture.providers import AVAILABLE_PROVIDERS, PrimitiveProvider

__all__ = ["BACKEND", "SLOT_STEPS", "SeededBackend", "drawn", "next_step", "steps"]

SLOT_STEPS = (0, 0, 1, 1, 1, 1, 2, 3)
"""Slots the chain moves on before a step: 0 keeps it in the block, more than 1 skips slots."""
BACKEND = "csi-chain-seeded"
_WIDE = 2**64


class SeededBackend(PrimitiveProvider):
    """Every choice from one `random.Random`, seeded by `drawn` before each draw."""

    lifetime: ClassVar[str] = "test_function"
    seed: ClassVar[int] = 0

    def __init__(self, conjecturedata: Any, /) -> None:
        super().__init__(conjecturedata)
        self.random = random.Random(self.seed)

    def draw_boolean(self, p: float = 0.5) -> bool:
        return p >= 1 or (p > 0 and self.random.random() < p)

    def draw_integer(self, min_value: int | None = None, max_value: int | None = None, *,
                     weights: dict[int, float] | None = None, shrink_towards: int = 0) -> int:
        if weights:
            pick = self.random.random()
            for value, weight in sorted(weights.items()):
                if pick < weight:
                    return value
                pick -= weight
        low = min_value if min_value is not None else (max_value if max_value is not None else 0) - _WIDE
        high = max_value if max_value is not None else low + 2 * _WIDE
        return self.random.randint(low, high)

    def draw_float(self, *, min_value: float = -math.inf, max_value: float = math.inf, allow_nan: bool = True,
                   smallest_nonzero_magnitude: float = 0.0) -> float:
        low, high = max(min_value, -1e300), min(max_value, 1e300)
        return self.random.uniform(low, high)

    def draw_string(self, intervals: Any, *, min_size: int = 0, max_size: int = 10) -> str:
        size = self.random.randint(min_size, min(max_size, min_size + 10))
        return "".join(chr(intervals[self.random.randrange(len(intervals))]) for _ in range(size)) if intervals else ""

    def draw_bytes(self, min_size: int = 0, max_size: int = 10) -> bytes:
        size = self.random.randint(min_size, min(max_size, min_size + 64))
        return self.random.randbytes(size)


AVAILABLE_PROVIDERS[BACKEND] = SeededBackend


def steps(model: Model, users: Users, seen: Set[str], kinds: Mapping[str, Kind] = KINDS
          ) -> st.SearchStrategy[tuple[Operation, int]]:
    """(operation, slots to move on first) for the model as it is, drawn from `kinds`."""

    @st.composite
    def step(draw: Any) -> tuple[Operation, int]:
        applicable = [name for name, kind in kinds.items() if kind.applies(model, users)]
        unseen = [name for name in applicable if name not in seen]
        if unseen and draw(st.integers(0, 3)) > 0:
            name = draw(st.sampled_from(unseen))
        else:
            weights = [kinds[name].weight_in(model) for name in applicable]
            pick = draw(st.integers(0, sum(weights) - 1))
            name = next(n for n, top in zip(applicable, _running(weights), strict=True) if pick < top)
        return kinds[name].plan(draw, model, users), draw(st.sampled_from(SLOT_STEPS))

    return step()


def _running(weights: list[int]) -> list[int]:
    total, tops = 0, []
    for weight in weights:
        total += weight
        tops.append(total)
    return tops


def drawn(strategy: st.SearchStrategy[Any], seed: int) -> Any:
    """One example of `strategy`, the same for the same seed: the last the engine makes on the seeded
    backend (its first is always the simplest one)."""
    found: list[Any] = []
    SeededBackend.seed = seed

    @settings(max_examples=2, database=None, phases=[Phase.generate], deadline=None, backend=BACKEND,
              suppress_health_check=list(HealthCheck))
    @given(strategy)
    def collect(example: Any) -> None:
        found.append(example)

    collect()
    return found[-1]


def next_step(model: Model, users: Users, seen: Set[str], *, seed: int, index: int,
              kinds: Mapping[str, Kind] = KINDS) -> tuple[Operation, int]:
    """Step `index` of the chain of `seed`."""
    step_seed = int.from_bytes(hashlib.sha256(f"csi-chain/{seed}/step/{index}".encode()).digest()[:8], "big")
    return drawn(steps(model, users, seen, kinds), step_seed)
