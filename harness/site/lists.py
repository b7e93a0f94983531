"""Three lists per clause, each a different question and a different person to ask.

Over the targets that judged a clause (two or more; SKIP, N/A and INCONCLUSIVE do not count), with each
target at its latest version:

- fails only on one target (not the reference): that vendor's bug;
- fails on every target: the spec is the odd one out, a question for its authors (the ambiguity page);
- fails only on the reference: the kit's own reference, or a check of the kit, is wrong: an alarm.
"""

from __future__ import annotations

from dataclasses import dataclass

from csi_conformance.harness.core.model import Status
from csi_conformance.harness.site.cells import Cell

__all__ = ["Lists", "three_lists"]


@dataclass(frozen=True)
class Lists:
    only_on: tuple[tuple[str, str], ...]
    """(clause, target) for each clause that fails on that one target alone."""
    everyone: tuple[str, ...]
    only_reference: tuple[str, ...]


def three_lists(rows: list[tuple[str, dict[str, Cell]]], reference: str | None) -> Lists:
    """The three lists from the clause matrix's rows (already in the spec's order)."""
    only_on, everyone, only_reference = [], [], []
    for clause, cells in rows:
        judged = {name for name, cell in cells.items() if cell.judged}
        failing = {name for name in judged if cells[name].status == Status.FAIL.value}
        if len(judged) < 2 or not failing:
            continue
        if failing == judged:
            everyone.append(clause)
        elif len(failing) == 1:
            (name,) = failing
            if name == reference:
                only_reference.append(clause)
            else:
                only_on.append((clause, name))
    return Lists(tuple(only_on), tuple(everyone), tuple(only_reference))
