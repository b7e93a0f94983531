"""ConsoleReporter: plain lines in CI logs, a progress bar on a terminal, then summary, findings, verdict."""

from __future__ import annotations

import io

from csi_conformance.harness.core.events import CheckFinished, CheckStarted, RunFinished, RunStarted
from csi_conformance.harness.core.model import RunResult, Status
from csi_conformance.harness.report import ConsoleReporter
from rich.console import Console


def _feed(reporter: ConsoleReporter, result: RunResult) -> None:
    reporter.handle(RunStarted(total=len(result.checks)))
    for check in result.checks:
        reporter.handle(CheckStarted(check.check_id))
        reporter.handle(CheckFinished(check))
    reporter.handle(RunFinished(result))


def _log(result: RunResult, **kwargs) -> str:
    console = Console(file=io.StringIO(), width=120)
    _feed(ConsoleReporter(console, **kwargs), result)
    return console.file.getvalue()


def test_ci_log_is_plain_lines(result: RunResult) -> None:
    log = _log(result)
    assert "\x1b" not in log  # no colour, no cursor movement
    lines = log.splitlines()
    assert lines[0] == "Running 8 checks"
    assert lines[1] == "[1/8] FAIL       envelope.id-echo"
    assert "[8/8] PASS       crypto.account-hash" in lines


def test_summary_table_rows(result: RunResult) -> None:
    log = _log(result)
    row = next(line for line in log.splitlines() if line.startswith("│ envelope"))
    header = next(line for line in log.splitlines() if line.startswith("┃ Family"))
    assert [cell.strip() for cell in header.strip("┃").split("┃")] == ["Family", "PASS", "SKIP", "INFO", "AMBIGUOUS",
                                                                      "WARN", "FAIL", "Total"]
    assert [cell.strip() for cell in row.strip("│").split("│")] == ["envelope", "0", "0", "0", "0", "1", "1", "2"]
    total = next(line for line in log.splitlines() if line.startswith("│ total"))
    assert [cell.strip() for cell in total.strip("│").split("│")] == ["total", "1", "2", "1", "1", "1", "2", "8"]
    assert "http://127.0.0.1:8899/?api-key=REDACTED  profile spec  seed 1234  321 requests in 12.3 s" in log


def test_fail_and_warn_findings_one_line_each(result: RunResult) -> None:
    lines = _log(result).splitlines()
    findings = [line for line in lines if line.startswith(("FAIL ", "WARN "))]
    assert len(findings) == 4
    assert findings[0] == ("FAIL  envelope.id-echo getCompressedAccount  Response id differs from request id at $.id:"
                           ' expected "test-account", received 7')  # whole in a log, past the width
    assert findings[1].startswith("FAIL  limits.validity-hashes getValidityProof  Hash count outside")
    assert "1 AMBIGUOUS, 1 INFO finding(s) below WARN: see the reports" in lines
    assert lines[-2] == "Threshold FAIL (--fail-on): 2 finding(s) at or above it"
    assert lines[-1] == ("Verdict: NOT CONFORMANT (exit 1): 2 findings at or above FAIL; "
                         "checks: 2 FAIL, 1 WARN, 1 AMBIGUOUS, 1 INFO, 2 SKIP, 1 PASS")


def test_gate_verdicts(passing: RunResult) -> None:
    assert _log(passing).splitlines()[-2:] == ["Threshold FAIL (--fail-on): no finding at or above it",
                                               "Verdict: CONFORMANT (exit 0): 0 findings at or above FAIL; "
                                               "checks: 1 WARN, 1 PASS"]
    assert _log(passing, gate=Status.WARN).splitlines()[-2] == "Threshold WARN (--fail-on): 1 finding(s) at or above it"


def test_terminal_cuts_finding_lines_to_the_width(result: RunResult) -> None:
    console = Console(file=io.StringIO(), width=80, force_terminal=True, color_system=None)
    _feed(ConsoleReporter(console), result)
    lines = [line for line in console.file.getvalue().splitlines() if line.startswith("FAIL ")]
    assert len(lines) == 2 and all(len(line) <= 80 and line.endswith("…") for line in lines)


def test_terminal_shows_a_progress_bar_then_the_summary(result: RunResult) -> None:
    console = Console(file=io.StringIO(), width=120, force_terminal=True)
    reporter = ConsoleReporter(console)
    reporter.handle(RunStarted(total=len(result.checks)))
    assert reporter._progress is not None and reporter._progress.live.is_started
    for check in result.checks:
        reporter.handle(CheckStarted(check.check_id))
        reporter.handle(CheckFinished(check))
    assert reporter._progress.tasks[0].completed == 8
    reporter.handle(RunFinished(result))
    assert reporter._progress is None
    log = console.file.getvalue()
    assert "Running 8 checks" not in log and "[1/8]" not in log
    assert "Checks per family and status" in log and "Threshold FAIL (--fail-on): 2 finding" in log


def test_close_stops_the_bar_when_the_run_dies(result: RunResult) -> None:
    console = Console(file=io.StringIO(), width=120, force_terminal=True)
    with ConsoleReporter(console) as reporter:
        reporter.handle(RunStarted(total=3))
        progress = reporter._progress
    assert reporter._progress is None and not progress.live.is_started


def test_hostile_text_is_neither_markup_nor_escape_codes(hostile: RunResult) -> None:
    log = _log(hostile)
    assert "\x1b" not in log and "\x00" not in log
    line = next(line for line in log.splitlines() if line.startswith("FAIL "))
    assert "<script>alert('x')</script> & \\x00\\x1b[31m[bold]red[/]" in line


def test_hostile_text_on_a_terminal_carries_no_foreign_escape(hostile: RunResult) -> None:
    console = Console(file=io.StringIO(), width=200, force_terminal=True, color_system="standard")
    _feed(ConsoleReporter(console), hostile)
    assert "\\x1b[31m[bold]red[/]" in console.file.getvalue()


def _kit_error_run(result: RunResult) -> RunResult:
    """The sample run plus an error of the kit, a grouped finding and the reasons it is inconclusive."""
    import dataclasses

    from csi_conformance.harness.core.model import Basis, CheckResult, Finding

    error = Finding("crypto.proof-verifies", "The kit could not complete this check", Status.ERROR, Basis.KIT,
                    ("2.3-R2",), "getValidityProof", "rule", "the check to run to its end", "KeyError: 'x'", None)
    check = CheckResult("crypto.proof-verifies", "crypto", ("2.3-R2",), "Proofs verify", [error],
                        runs=1, methods={"getValidityProof"})
    first = result.checks[0]
    grouped = dataclasses.replace(first.findings[0], occurrences=22,
                                  kind="mismatch", expected="test-account", received=7,
                                  path="$.id")
    first.findings[0] = grouped
    result.checks.append(check)
    result.inconclusive = ["the request budget (--max-requests 10) ran out: 3 checks examined nothing"]
    return result


def test_errors_of_the_kit_grouped_findings_and_inconclusive_reasons(result: RunResult) -> None:
    lines = _log(_kit_error_run(result)).splitlines()
    error = next(line for line in lines if line.startswith("ERROR "))
    assert error.startswith("ERROR crypto.proof-verifies getValidityProof  The kit could not complete this check "
                            "[an error of the kit, not of the target]")
    grouped = next(line for line in lines if line.startswith("FAIL  envelope.id-echo"))
    assert "Response id differs from request id ×22 at $.id:" in grouped
    assert ("Inconclusive: the request budget (--max-requests 10) ran out: 3 checks examined nothing") in lines
    assert lines[-1].startswith("Verdict: NOT CONFORMANT (exit 1): 2 findings at or above FAIL; 1 error of the kit;")


def test_progress_counts_answer_checks_and_shows_their_status_only_at_the_end(result: RunResult) -> None:
    from csi_conformance.harness.core.events import PhaseStarted

    console = Console(file=io.StringIO(), width=120)
    reporter = ConsoleReporter(console)
    answer, active = result.checks[0], result.checks[1:]
    reporter.handle(RunStarted(total=len(result.checks), answer_checks=1))
    reporter.handle(PhaseStarted("discovering keys"))
    for check in active:
        reporter.handle(CheckStarted(check.check_id))
        reporter.handle(CheckFinished(check))
    reporter.handle(CheckFinished(answer))
    lines = console.file.getvalue().splitlines()
    assert lines[0] == "Running 8 checks (1 judge every answer: their status comes at the end)"
    assert lines[1] == "… discovering keys"
    assert lines[-1] == "[8/8] FAIL       envelope.id-echo"
    assert not any("envelope.id-echo" in line for line in lines[:-1])


def test_terminal_shows_each_slow_step_on_the_bar(result: RunResult) -> None:
    from csi_conformance.harness.core.events import PhaseStarted

    console = Console(file=io.StringIO(), width=120, force_terminal=True)
    with ConsoleReporter(console) as reporter:
        reporter.handle(RunStarted(total=3, answer_checks=1))
        reporter.handle(PhaseStarted("discovering keys"))
        assert reporter._progress.tasks[0].description == "discovering keys"


def test_a_baseline_is_one_line_however_long(result: RunResult) -> None:
    import dataclasses

    from csi_conformance.harness.core.model import BaselineEntry

    for check in result.checks:
        check.findings[:] = [dataclasses.replace(f, baselined=True) for f in check.findings]
    result.baseline = [BaselineEntry("health.ok")] * 9
    result.stale_baseline = [BaselineEntry(f"health.x{i}", "getIndexerSlot") for i in range(5)]
    lines = _log(result).splitlines()
    mentions = [line for line in lines if "baseline" in line.lower() or "health.x" in line]
    assert mentions[0] == ("Baseline: 6 known finding(s) not counted by the gate; 5 stale entries matched no "
                           "finding: health.x0 (getIndexerSlot), health.x1 (getIndexerSlot), health.x2 "
                           "(getIndexerSlot) and 2 more; remove them from the baseline (report.json lists them)")
    assert len(mentions) == 2 and mentions[1].startswith("Verdict: CONFORMANT (exit 0): 0 findings at or above FAIL; "
                                                         "6 known findings excused by the baseline;")
    assert not [line for line in lines if line.startswith(("FAIL ", "WARN "))]
