"""The console view of a run: progress while checks run, then a summary, the findings and the verdict.

On a terminal a progress bar advances per check; anywhere else (a CI log, a pipe) each finished
check is one plain line, so logs stay readable and carry no cursor movements. Everything a
target may have influenced is printed as `rich.text.Text` (never parsed as markup) and through
`values.one_line`, so escape sequences in an answer never reach the terminal.
"""

from __future__ import annotations

from collections import defaultdict
from types import TracebackType

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from harness.core.model import CheckResult, RunResult, Status
from harness.core.registry import FAMILIES
from harness.engine.events import CheckFinished, CheckStarted, Event, RunFinished, RunStarted
from harness.report.json_report import gate_summary
from harness.report.values import one_line

__all__ = ["STYLES", "ConsoleReporter", "summary_table"]

STYLES = {Status.PASS: "green", Status.SKIP: "dim", Status.UNVERIFIED: "cyan", Status.INFO: "blue",
          Status.AMBIGUOUS: "magenta", Status.ERROR: "bold magenta",
          Status.WARN: "yellow", Status.FAIL: "bold red"}
_LISTED = (Status.FAIL, Status.WARN)


class ConsoleReporter:
    """Consumes the engine's events: `reporter.handle(event)`, or pass `reporter.handle` as `on_event`."""

    def __init__(self, console: Console | None = None, *, gate: Status = Status.FAIL) -> None:
        self.console = console or Console(force_terminal=None)
        self.gate = gate
        self._progress: Progress | None = None
        self._task: int | None = None
        self._total = 0
        self._done = 0

    def handle(self, event: Event) -> None:
        if isinstance(event, RunStarted):
            self._started(event.total)
        elif isinstance(event, CheckStarted):
            self._check_started(event.check_id)
        elif isinstance(event, CheckFinished):
            self._check_finished(event.result)
        elif isinstance(event, RunFinished):
            self.close()
            self.print_summary(event.result)

    def close(self) -> None:
        """Stop the progress bar, if one is running; safe to call twice."""
        if self._progress is not None:
            self._progress.stop()
            self._progress = None

    def __enter__(self) -> ConsoleReporter:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.close()

    # -- progress ------------------------------------------------------------------------
    def _started(self, total: int) -> None:
        self._total, self._done = total, 0
        if not self.console.is_terminal:
            self.console.print(Text(f"Running {total} checks"))
            return
        self._progress = Progress(SpinnerColumn(), TextColumn("{task.description}"), BarColumn(),
                                  MofNCompleteColumn(), TimeElapsedColumn(), console=self.console, transient=True)
        self._task = self._progress.add_task("checks", total=total)
        self._progress.start()

    def _check_started(self, check_id: str) -> None:
        if self._progress is not None and self._task is not None:
            self._progress.update(self._task, description=one_line(check_id))

    def _check_finished(self, check: CheckResult) -> None:
        self._done += 1
        if self._progress is not None and self._task is not None:
            self._progress.advance(self._task)
            return
        width = len(str(self._total))
        status = check.status
        self.console.print(Text.assemble(f"[{self._done:>{width}}/{self._total}] ",
                                         (f"{status.value:<9}", STYLES[status]), " ", one_line(check.check_id)))

    # -- the end -------------------------------------------------------------------------
    def print_summary(self, result: RunResult) -> None:
        """Summary table, FAIL and WARN findings one line each, then the gate verdict."""
        self.console.print()
        self.console.print(Text(f"{one_line(result.target)}  profile {result.profile}  seed {result.seed}  "
                                f"{result.requests} requests in {result.duration:.1f} s"))
        if result.scenario is not None:
            self.console.print(Text(f"compared with a reference server over scenario {one_line(result.scenario)}"))
        self.console.print(summary_table(result))
        self._print_findings(result)
        self._print_baseline(result)
        if result.interrupted:
            self.console.print(Text("Interrupted: checks that did not run are SKIP.", style="yellow"))
        if result.stopped:
            self.console.print(Text(f"Inconclusive: {one_line(result.stopped)}; later checks are SKIP.",
                                    style="yellow"))
        verdict = gate_summary(result, self.gate)
        if verdict["passed"]:
            line = Text(f"Gate ({self.gate.value}): passed, no finding at or above {self.gate.value}",
                        style="bold green")
        else:
            line = Text(f"Gate ({self.gate.value}): failed, {verdict['blocking']} finding(s) at or above "
                        f"{self.gate.value}", style="bold red")
        self.console.print(line)

    def _print_findings(self, result: RunResult) -> None:
        """One line per FAIL or WARN finding: cut to the width on a terminal, whole in a log."""
        terminal = self.console.is_terminal
        listed = sorted((f for f in result.findings if f.status in _LISTED), key=lambda f: (-f.status.rank, f.check_id))
        for finding in listed:
            self.console.print(Text.assemble(
                (f"{finding.status.value:<5}", STYLES[finding.status]), " ", (one_line(finding.check_id), "bold"),
                " ", one_line(finding.method or "-"), "  ", ("(baselined) ", "dim") if finding.baselined else "",
                one_line(finding.title), ": ", one_line(finding.message),
            ), no_wrap=True, overflow="ellipsis" if terminal else "ignore", crop=terminal)
        others = len(result.findings) - len(listed)
        if others:
            self.console.print(Text(f"{others} INFO/AMBIGUOUS finding(s): see the reports", style="dim"))


    def _print_baseline(self, result: RunResult) -> None:
        """How many findings the baseline excused, and each stale entry on its own line."""
        if result.baseline is None:
            return
        known = sum(1 for finding in result.findings if finding.baselined)
        stale = len(result.stale_baseline)
        self.console.print(Text(f"Baseline: {known} finding(s) known and not counted by the gate; "
                                f"{stale} stale entr{'y' if stale == 1 else 'ies'}",
                                style="yellow" if stale else "dim"))
        for entry in result.stale_baseline:
            self.console.print(Text(f"  stale: {one_line(entry.check)} {one_line(entry.method or 'any method')}"
                                    + (f" ({one_line(entry.title)})" if entry.title else "")
                                    + ": matched no finding; remove it from the baseline", style="yellow"))


def summary_table(result: RunResult) -> Table:
    """Families as rows, statuses as columns, each cell the number of checks; a total row last."""
    counts: dict[str, dict[Status, int]] = defaultdict(lambda: dict.fromkeys(Status, 0))
    for check in result.checks:
        counts[check.family][check.status] += 1
    families = [f for f in FAMILIES if f in counts] + sorted(set(counts) - set(FAMILIES))
    table = Table(title="Checks per family and status")
    table.add_column("Family")
    for status in Status:
        table.add_column(status.value, justify="right", style=STYLES[status])
    table.add_column("Total", justify="right")
    for family in families:
        row = counts[family]
        table.add_row(family, *(_count(row[s]) for s in Status), str(sum(row.values())))
    totals = {s: sum(counts[f][s] for f in families) for s in Status}
    table.add_section()
    table.add_row(Text("total", style="bold"), *(_count(totals[s]) for s in Status), str(len(result.checks)))
    return table


def _count(value: int) -> Text:
    return Text(str(value), style="" if value else "dim")
