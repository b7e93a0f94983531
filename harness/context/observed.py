"""What a run has seen so far across its checks: the readings its answers followed, the highest slot, its notes.

The answer checks add to it as answers come; the report reads it at the end (the readings of each
open point, the run's notes). A fork of the context counts readings into the run's own tables, while
its notes wait for the run to absorb the fork, so they come in the same order at any concurrency.
"""

from __future__ import annotations

import copy
from collections import Counter
from dataclasses import dataclass, field

__all__ = ["Observed"]


@dataclass
class Observed:
    """Run-wide observations: the readings each open point's answers followed, slots and notes."""

    readings_seen: dict[str, Counter] = field(default_factory=dict)
    answers_seen: dict[str, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    """Remarks about the run as a whole, copied into the result."""
    max_context_slot: int | None = None
    """Highest `context.slot` answered so far (every call updates it)."""
    previous_context_slot: int | None = None
    """The highest before the latest answer, so answer checks can see a slot going backwards."""

    def observe(self, ambiguity: str, readings: tuple[str, ...]) -> None:
        """Record that one answer touching `ambiguity` was consistent with `readings`."""
        self.readings_seen.setdefault(ambiguity, Counter()).update(readings)
        self.answers_seen[ambiguity] = self.answers_seen.get(ambiguity, 0) + 1

    def slot_seen(self, slot: int | None) -> None:
        """An answer's `context.slot` (None when it had none) came."""
        self.previous_context_slot = self.max_context_slot
        if slot is not None and (self.max_context_slot is None or slot > self.max_context_slot):
            self.max_context_slot = slot

    def forked(self) -> Observed:
        """A fork's: the same tables of readings, its own notes, its slots starting from these."""
        twin = copy.copy(self)
        twin.notes = []
        return twin

    def absorb(self, twin: Observed) -> None:
        """Keep a fork's notes, after those of the work absorbed before it."""
        self.notes += twin.notes
