"""Examples of a hypothesis strategy, seeded: the same seed draws the same examples, wherever the kit runs.

`drawn` gives `count` distinct examples of a strategy, the first the simplest, as a `@given` test would,
without the test engine around them (its per-example bookkeeping was over a quarter of a run's CPU).

What a draw depends on is the seed and the strategy only. hypothesis's own provider also draws, now and
then, a constant it read from the source of the modules loaded so far that it takes for the user's own
(`is_local_module_file`: any file outside site-packages): so the same seed drew other params in an
editable checkout than in a `pip install`, with `--only` than in a full run, and after a lazy import
than before it. `SeededProvider` is hypothesis's provider with its global constants only (0, 1, powers
of two, boundaries: the same everywhere); the local ones are never drawn.
"""

from __future__ import annotations

import threading
from random import Random
from typing import Any

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st

try:  # hypothesis's conjecture internals: not public API, so `DIRECT` checks them and a test fails on a change
    from hypothesis.control import BuildContext
    from hypothesis.errors import StopTest
    from hypothesis.internal.conjecture.choice import (
        ChoiceTemplate,
        choice_constraints_key,
        choice_permitted,
        choices_key,
    )
    from hypothesis.internal.conjecture.data import ConjectureData, Status
    from hypothesis.internal.conjecture.datatree import DataTree
    from hypothesis.internal.conjecture.providers import GLOBAL_CONSTANTS, HypothesisProvider
    from hypothesis.internal.floats import float_to_int
except ImportError:  # pragma: no cover
    HypothesisProvider = DataTree = object  # type: ignore[assignment,misc]

__all__ = ["DIRECT", "MAX_REJECTED", "SeededProvider", "drawn"]


class SeededProvider(HypothesisProvider):  # type: ignore[misc,valid-type]
    """hypothesis's provider, its constants the global ones only: no draw depends on which modules are loaded."""

    def _maybe_draw_constant(self, choice_type: str, constraints: Any, *, p: float = 0.05) -> Any:
        if self._random.random() > p:
            return None
        key = (choice_type, choice_constraints_key(choice_type, constraints))
        if key not in _PERMITTED:
            _PERMITTED[key] = tuple(choice for choice in GLOBAL_CONSTANTS.set_for_type(choice_type)
                                    if choice_permitted(choice, constraints))
        permitted = _PERMITTED[key]
        return self._random.choice(permitted) if permitted else None


_PERMITTED: dict[tuple, tuple] = {}
"""The global constants each kind of choice allows, by the choice's constraints."""


class _SeededTree(DataTree):  # type: ignore[misc,valid-type]
    """A `DataTree` whose novel prefixes are drawn by `SeededProvider` too (its own draws use hypothesis's provider,
    through a `ConjectureData` made for each choice: one per prefix here, the same values for a fifth less time)."""

    def generate_novel_prefix(self, random: Random) -> tuple[Any, ...]:
        self._drawing = ConjectureData(random=random, provider=SeededProvider)
        return super().generate_novel_prefix(random)

    def _draw(self, choice_type: str, constraints: Any, *, random: Random) -> Any:
        value = getattr(self._drawing.provider, f"draw_{choice_type}")(**constraints)
        return float_to_int(value) if choice_type == "float" else value


def drawn(strategy: st.SearchStrategy[Any], *, count: int, seed: int) -> list[Any]:
    """`count` examples of a strategy, the same for the same seed (no example database).

    Each is drawn from choices not made before, as in a `@given` test, so a small strategy runs
    out: a choice among 3 values gives those 3, not 24 repeats. The first is the simplest.
    """
    with _DRAWING:  # hypothesis keeps global state while it draws: one draw at a time, whatever the thread
        if DIRECT:
            return _drawn_directly(strategy, count=count, seed=seed)
        return _drawn_by_engine(strategy, count=count, seed=seed)


_DRAWING = threading.Lock()


def _drawn_by_engine(strategy: st.SearchStrategy[Any], *, count: int, seed: int) -> list[Any]:
    """`drawn` through a `@given` test run: hypothesis's test engine, the slower path (benchmarks/README.md),
    whose draws may take the loaded modules' constants (only when `DIRECT` is False)."""
    found: list[Any] = []

    @settings(max_examples=count, database=None, phases=[Phase.generate], deadline=None,
              suppress_health_check=list(HealthCheck))
    @hypothesis_seed(seed)
    @given(strategy)
    def collect(example: Any) -> None:
        found.append(example)

    collect()
    return found[:count]


def _drawn_directly(strategy: st.SearchStrategy[Any], *, count: int, seed: int) -> list[Any]:
    """`drawn` straight from hypothesis's choice sequences, without a test engine around them.

    What `drawn` needs of the engine is kept: a `DataTree` of the choice sequences made says when
    a small strategy has none left, and once an example repeats an earlier one it starts each next
    example with choices not made yet (as the engine does for every example; a strategy too large
    to repeat itself is spared that cost); an example the strategy rejects (a filter) is not
    counted; a `Random` seeded with `seed` drives every choice, through `SeededProvider`.
    """
    strategy.validate()
    tree, random, found, rejected = _SeededTree(), Random(seed), [], 0
    seen: set[tuple[Any, ...]] | None = set()  # None once an example repeated: novel prefixes from then on
    prefix: tuple[Any, ...] = (ChoiceTemplate("simplest", count=None),)
    while len(found) < count and not tree.is_exhausted and rejected <= MAX_REJECTED + 10 * len(found):
        data = ConjectureData(random=random, observer=tree.new_observer(), prefix=prefix, provider=SeededProvider)
        example = None
        try:
            with BuildContext(data, wrapped_test=drawn):
                example = data.draw(strategy)
            data.freeze()
        except StopTest:
            data.freeze()
        key = choices_key(data.choices) if seen is not None else None
        if seen is not None and key in seen:
            seen = None  # a repeat is no new example, and says the strategy is small enough to run out
        else:
            if seen is not None:
                seen.add(key)
            if data.status is Status.VALID:
                found.append(example)
            else:
                rejected += 1
        prefix = () if seen is not None or tree.is_exhausted else tree.generate_novel_prefix(random)
    return found


MAX_REJECTED = 100
"""Rejected examples (filtered out, too large) after which `drawn` gives what it has, plus 10 per
example found: a strategy that its filter nearly always rejects ends instead of looping."""


def _direct_works() -> bool:
    """Whether the internals `_drawn_directly` uses are there and work (they are not public API)."""
    try:
        return _drawn_directly(st.sampled_from("ab"), count=3, seed=0) in (["a", "b"], ["b", "a"])
    except Exception:  # any change of those internals: the engine does the drawing
        return False


DIRECT = _direct_works()
"""Whether `drawn` draws directly; False only with a hypothesis whose conjecture internals changed
(tests/harness/test_drawing.py fails then, so that the slower engine is not used unnoticed)."""
