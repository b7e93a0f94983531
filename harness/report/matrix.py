"""The method × family matrix of the implementation report: how each method fared in each family."""

from __future__ import annotations

from collections import defaultdict

from harness.core.model import RunResult, Status
from harness.core.registry import FAMILIES

__all__ = ["RUN_WIDE", "Matrix", "matrix_columns", "matrix_rows", "method_family_matrix"]

RUN_WIDE = "(whole target)"
"""Row for checks and findings not tied to one method (transport, health of the endpoint)."""

Matrix = dict[tuple[str, str], Status]


def method_family_matrix(result: RunResult) -> Matrix:
    """(method, family) -> the worst status for that method in that family; absent where nothing applies.

    A check contributes to every method it ran on: the worst of its findings for that method,
    else PASS (or SKIP when the check as a whole examined nothing). A finding tied to a method
    the check did not list still counts for that method. A check that never ran adds nothing.
    """
    statuses: dict[tuple[str, str], list[Status]] = defaultdict(list)
    for check in result.checks:
        per_method: dict[str, list[Status]] = defaultdict(list)
        for finding in check.findings:
            per_method[finding.method or RUN_WIDE].append(finding.status)
        quiet = Status.SKIP if check.status is Status.SKIP else Status.PASS
        methods = set(check.methods) or ({RUN_WIDE} if check.runs else set())
        for method in methods | set(per_method):
            statuses[(method, check.family)].append(Status.worst(per_method.get(method, ()), quiet))
    return {cell: Status.worst(found) for cell, found in statuses.items()}


def matrix_rows(matrix: Matrix, methods: list[str]) -> list[str]:
    """Row order: the contract's methods, then any other method seen, then the run-wide row if used."""
    seen = {method for method, _ in matrix}
    rows = list(methods) + sorted(seen - set(methods) - {RUN_WIDE})
    return rows + ([RUN_WIDE] if RUN_WIDE in seen else [])


def matrix_columns(matrix: Matrix) -> list[str]:
    seen = {family for _, family in matrix}
    return list(FAMILIES) + sorted(seen - set(FAMILIES))
