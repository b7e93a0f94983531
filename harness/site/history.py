"""A target's history: its runs by declared version, and for each check only where its status moved.

A table of every check at every version would be all PASS; what a reader wants is when something broke
or was fixed. A row is a check whose status differs between two consecutive versions; a cell shows the
status where it changed (and at the first version, to start from), blank where it held.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

from csi_conformance.harness.site.align import Run

__all__ = ["ABSENT", "History", "history"]

ABSENT = "absent"
"""A check the run at that version did not have."""


@dataclass(frozen=True)
class History:
    versions: tuple[str, ...]
    rows: tuple[tuple[str, tuple[str, ...]], ...]
    """(check, the status shown per version: "" where it held)."""


def history(runs: list[Run]) -> History:
    """The transitions of each check across `runs` (oldest version first)."""
    versions = tuple(run.version or "(no version)" for run in runs)
    statuses = [{check.check_id: check.status.value for check in run.result.checks} for run in runs]
    rows = []
    for check in sorted({check for seen in statuses for check in seen}):
        line = [seen.get(check, ABSENT) for seen in statuses]
        if len(set(line)) > 1:
            shown = [line[0]] + [now if now != before else "" for before, now in pairwise(line)]
            rows.append((check, tuple(shown)))
    return History(versions, tuple(rows))
