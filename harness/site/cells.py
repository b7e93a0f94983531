"""The matrix: targets by check family and by clause, each cell a status and its basis, two facts.

A cell's status is the worst of the checks behind it that judged the target. Checks that judged nothing
stay apart: SKIP (could have applied, examined nothing), N/A (cannot apply to the run's mode) and
INCONCLUSIVE (UNVERIFIED, or the kit failed on the check): a cell shows one of those only when no check
behind it judged anything (INCONCLUSIVE before SKIP before N/A), and none is ever counted as a pass or a
fail. Nothing here is a percentage.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from csi_conformance.harness.core.model import CheckResult, RunResult, Status
from csi_conformance.harness.core.registry import FAMILIES
from csi_conformance.harness.report.diff import JUDGED

__all__ = ["INCONCLUSIVE", "NOT_JUDGED", "Cell", "Summary", "cell", "clause_key", "matrix", "summary"]

INCONCLUSIVE = "INCONCLUSIVE"
NOT_JUDGED = ("SKIP", "N/A", INCONCLUSIVE)
"""What a cell or a count shows apart from the judged statuses, in this order."""
_UNSURE = frozenset({Status.UNVERIFIED, Status.ERROR})


@dataclass(frozen=True)
class Cell:
    """One target's standing on one row: a status, the bases it rests on, and the checks behind it."""

    status: str
    """A judged status (PASS … FAIL), one of `NOT_JUDGED`, or "" when the run has no check for the row."""
    basis: tuple[str, ...]
    checks: tuple[str, ...]

    @property
    def judged(self) -> bool:
        return self.status not in NOT_JUDGED and self.status != ""


def _label(status: Status) -> str:
    return INCONCLUSIVE if status in _UNSURE else status.value


def cell(checks: Iterable[CheckResult]) -> Cell:
    """The cell of a row from the checks behind it."""
    checks = list(checks)
    if not checks:
        return Cell("", (), ())
    judged = [check for check in checks if check.status in JUDGED]
    if judged:
        worst = Status.worst(check.status for check in judged)
        deciding = [check for check in judged if check.status is worst]
        bases = {f.basis.value for check in deciding for f in check.findings if f.status is worst}
        bases = bases or {check.basis.value for check in deciding}
        return Cell(worst.value, tuple(sorted(bases)), tuple(sorted(c.check_id for c in deciding)))
    label = next(name for name in (INCONCLUSIVE, "SKIP", "N/A") if any(_label(c.status) == name for c in checks))
    deciding = [check for check in checks if _label(check.status) == label]
    return Cell(label, tuple(sorted({c.basis.value for c in deciding})), tuple(sorted(c.check_id for c in deciding)))


def clause_key(clause: str) -> tuple:
    """Clauses in the spec's order: `4.2-R10` after `4.2-R9`."""
    return tuple((0, int(part), "") if part.isdigit() else (1, 0, part) for part in re.split(r"(\d+)", clause))


def matrix(results: Mapping[str, RunResult], by: str) -> list[tuple[str, dict[str, Cell]]]:
    """Rows (`by`: "family" or "clause") of cells, one per target; rows in the run's or the spec's order."""
    rows: dict[str, dict[str, list[CheckResult]]] = {}
    for name, result in results.items():
        for check in result.checks:
            for row in (check.family,) if by == "family" else check.clauses:
                rows.setdefault(row, {}).setdefault(name, []).append(check)
    order = ((lambda row: (FAMILIES.index(row) if row in FAMILIES else len(FAMILIES), row)) if by == "family"
             else clause_key)
    return [(row, {name: cell(rows[row].get(name, ())) for name in sorted(results)})
            for row in sorted(rows, key=order)]


@dataclass(frozen=True)
class Summary:
    """A target's run in numbers that add nothing up: the verdict, clauses earned, checks per status."""

    verdict: str
    earned: tuple[str, ...]
    judged: dict[str, int]
    apart: dict[str, int]


def summary(result: RunResult) -> Summary:
    """The verdict of the run, the clauses it earned (every check behind them judged and passed), and the
    checks by status, the judged ones and the others apart."""
    standing: dict[str, bool] = {}
    for check in result.checks:
        for clause in check.clauses:
            standing[clause] = standing.get(clause, True) and check.status is Status.PASS
    earned = tuple(sorted((clause for clause, passed in standing.items() if passed), key=clause_key))
    judged = {status.value: 0 for status in sorted(JUDGED, key=lambda s: -s.rank)}
    apart = dict.fromkeys(NOT_JUDGED, 0)
    for check in result.checks:
        if check.status in JUDGED:
            judged[check.status.value] += 1
        else:
            apart[_label(check.status)] += 1
    return Summary(result.verdict(), earned, judged, apart)
