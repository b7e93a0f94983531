"""The method × family matrix of the implementation report: how each method fared in each family."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection

from csi_conformance.harness.core.model import CheckResult, RunResult, Status
from csi_conformance.harness.core.registry import FAMILIES

__all__ = ["RUN_WIDE", "Matrix", "matrix_columns", "matrix_rows", "method_family_matrix"]

RUN_WIDE = "(whole target)"
"""Row for checks and findings not tied to one method of the contract (transport, health of the endpoint,
the probe with an unknown method name)."""

Matrix = dict[tuple[str, str], Status]


def method_family_matrix(result: RunResult, methods: Collection[str] | None = None) -> Matrix:
    """(method, family) -> how that method fared in that family; absent where no check of it ran there.

    A cell is the worst status of the findings about that method in that family; with none, PASS when
    some check of the family examined the method, SKIP when checks whose rule applies there (an answer
    check: the method's answers can hold what it judges; `CheckResult.methods`) examined nothing, and N/A
    when every check that ran there cannot apply to the run's mode. A check not tied to methods counts
    on the run-wide row. With the contract's `methods`, a method outside them (an unknown-method probe)
    counts as run-wide too.
    """
    cells: dict[tuple[str, str], _Cell] = defaultdict(_Cell)
    for check in result.checks:
        for method, findings, examined in _check_cells(check, methods):
            cell = cells[(method, check.family)]
            cell.findings += findings
            cell.examined |= examined
            cell.applicable |= check.status is not Status.NOT_APPLICABLE
    return {key: cell.status for key, cell in cells.items()}


class _Cell:
    def __init__(self) -> None:
        self.findings: list[Status] = []
        self.examined = False
        self.applicable = False

    @property
    def status(self) -> Status:
        if self.findings:
            return Status.worst(self.findings)
        if self.examined:
            return Status.PASS
        return Status.SKIP if self.applicable else Status.NOT_APPLICABLE


def _check_cells(check: CheckResult, methods: Collection[str] | None) -> list[tuple[str, list[Status], bool]]:
    """(row, finding statuses there, examined there) for every row the check touched."""
    def row(method: str | None) -> str:
        return method if method and (methods is None or method in methods) else RUN_WIDE

    per_method: dict[str, list[Status]] = defaultdict(list)
    for finding in check.findings:
        if not finding.baselined:  # a known finding the baseline excuses is listed, not counted in a cell
            per_method[row(finding.method)].append(finding.status)
    examined = {row(method) for method in check.examined_methods}
    if check.examined_total and not examined:
        examined = {RUN_WIDE}  # examined, but nothing tied to a method
    touched = {row(method) for method in check.methods} | examined | set(per_method)
    if not touched and check.runs:
        touched = {RUN_WIDE}
    return [(method, per_method.get(method, []), method in examined) for method in touched]


def matrix_rows(matrix: Matrix, methods: list[str]) -> list[str]:
    """Row order: the contract's methods (every one, so a method nothing reached shows as such), then the
    run-wide row if used. Build the matrix with the same `methods`, or other names are left out."""
    seen = {method for method, _ in matrix}
    return list(methods) + ([RUN_WIDE] if RUN_WIDE in seen else [])


def matrix_columns(matrix: Matrix) -> list[str]:
    seen = {family for _, family in matrix}
    return list(FAMILIES) + sorted(seen - set(FAMILIES))
