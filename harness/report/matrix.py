"""The method × family matrix of the implementation report: how each method fared in each family."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection

from harness.core.model import CheckResult, RunResult, Status
from harness.core.registry import FAMILIES

__all__ = ["RUN_WIDE", "Matrix", "matrix_columns", "matrix_rows", "method_family_matrix"]

RUN_WIDE = "(whole target)"
"""Row for checks and findings not tied to one method of the contract (transport, health of the endpoint,
the probe with an unknown method name)."""

Matrix = dict[tuple[str, str], Status]


def method_family_matrix(result: RunResult, methods: Collection[str] | None = None) -> Matrix:
    """(method, family) -> the worst status for that method in that family; absent where nothing applies.

    A check contributes to every method it ran on or examined: the worst of its findings for that
    method, else PASS where it examined something on that method, else SKIP (it ran there, but
    reached nothing to judge). A check not tied to methods counts on the run-wide row. With the
    contract's `methods`, a method outside them (an unknown-method probe) counts as run-wide too.
    """
    statuses: dict[tuple[str, str], list[Status]] = defaultdict(list)
    for check in result.checks:
        for method, status in _check_cells(check, methods).items():
            statuses[(method, check.family)].append(status)
    return {cell: Status.worst(found) for cell, found in statuses.items()}


def _check_cells(check: CheckResult, methods: Collection[str] | None) -> dict[str, Status]:
    def row(method: str | None) -> str:
        return method if method and (methods is None or method in methods) else RUN_WIDE

    per_method: dict[str, list[Status]] = defaultdict(list)
    for finding in check.findings:
        per_method[row(finding.method)].append(finding.status)
    examined = {row(method) for method in check.examined_methods}
    if check.examined_total and not examined:
        examined = {RUN_WIDE}  # examined, but nothing tied to a method
    touched = {row(method) for method in check.methods} | examined | set(per_method)
    if not touched and check.runs:
        touched = {RUN_WIDE}
    return {method: Status.worst(per_method.get(method, ()), Status.PASS if method in examined else Status.SKIP)
            for method in touched}


def matrix_rows(matrix: Matrix, methods: list[str]) -> list[str]:
    """Row order: the contract's methods (every one, so a method nothing reached shows as such), then the
    run-wide row if used. Build the matrix with the same `methods`, or other names are left out."""
    seen = {method for method, _ in matrix}
    return list(methods) + ([RUN_WIDE] if RUN_WIDE in seen else [])


def matrix_columns(matrix: Matrix) -> list[str]:
    seen = {family for _, family in matrix}
    return list(FAMILIES) + sorted(seen - set(FAMILIES))
