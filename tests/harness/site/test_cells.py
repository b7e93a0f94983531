"""A cell and a target's summary: checks that judged nothing stay apart, never a pass or a fail."""

from __future__ import annotations

from csi_conformance.harness.core.model import Basis, CheckResult, Finding, RunResult, Status
from csi_conformance.harness.site.cells import cell, summary


def _check(check_id: str, status: Status, basis: Basis = Basis.SPEC, clauses: tuple[str, ...] = ("4.1-R6",)) \
        -> CheckResult:
    check = CheckResult(check_id, check_id.split(".")[0], clauses, "", basis=basis)
    if status is Status.PASS:
        check.examined = {"answers": 1}
    elif status is Status.NOT_APPLICABLE:
        check.not_applicable = "needs a scenario"
    elif status is not Status.SKIP:
        check.findings = [Finding(check_id, "wrong", status, basis, clauses, None, "rule", "x", "y")]
    assert check.status is status
    return check


def test_a_check_that_judged_nothing_never_decides_a_cell_that_others_judged() -> None:
    assert cell([_check("a.one", Status.PASS), _check("a.two", Status.SKIP)]).status == "PASS"
    assert cell([_check("a.one", Status.SKIP), _check("a.two", Status.NOT_APPLICABLE)]).status == "SKIP"
    assert cell([_check("a.one", Status.NOT_APPLICABLE)]).status == "N/A"
    assert cell([_check("a.one", Status.ERROR), _check("a.two", Status.SKIP)]).status == "INCONCLUSIVE"
    assert cell([_check("a.one", Status.UNVERIFIED), _check("a.two", Status.PASS)]).status == "PASS"


def test_a_cell_says_its_status_and_its_basis_apart() -> None:
    found = cell([_check("a.one", Status.FAIL, Basis.OBSERVED), _check("a.two", Status.PASS, Basis.SPEC)])
    assert (found.status, found.basis, found.checks) == ("FAIL", ("observed",), ("a.one",))


def test_the_summary_counts_what_judged_nothing_apart_and_earns_only_whole_clauses() -> None:
    run = RunResult("http://t/", "spec", 0, "0.50.0", "2026-01-01T00:00:00+00:00", checks=[
        _check("a.one", Status.PASS, clauses=("1-R1",)), _check("a.two", Status.SKIP, clauses=("1-R1",)),
        _check("a.three", Status.PASS, clauses=("2-R1",)), _check("a.four", Status.ERROR, clauses=("3-R1",)),
        _check("a.five", Status.FAIL, clauses=("4-R1",)), _check("a.six", Status.NOT_APPLICABLE, clauses=())])
    told = summary(run)
    assert told.earned == ("2-R1",)
    assert {k: v for k, v in told.judged.items() if v} == {"PASS": 2, "FAIL": 1}
    assert told.apart == {"SKIP": 1, "N/A": 1, "INCONCLUSIVE": 1}
