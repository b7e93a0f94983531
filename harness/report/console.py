"""The console view of a run: progress while checks run, then a summary, the findings and the verdict.

Progress counts every check, answer checks included, and shows a check's status only once it is
final: an active check when it returns, an answer check (judged on every answer) when the run
ends. On a terminal a progress bar advances per check, and a slow step (reaching the target,
discovering keys) shows a spinner with the time spent; anywhere else (a CI log, a pipe) each step
and each finished check is one plain line, so logs stay readable and carry no cursor movements.
The summary lists every check that examined nothing with why (SKIP, then N/A), one line per reason,
and what the checks of batched trees examined when the target holds some.
Everything a target may have influenced is printed as `rich.text.Text` (never parsed as markup)
and through `values.one_line`, so escape sequences in an answer never reach the terminal.
"""

from __future__ import annotations

import os
import time
from collections import defaultdict
from types import TracebackType

from csi_conformance.harness.core.events import (
    CheckFinished,
    CheckStarted,
    Event,
    PhaseStarted,
    RunFinished,
    RunStarted,
    TargetThrottled,
)
from csi_conformance.harness.core.model import CheckResult, Finding, RunResult, Status
from csi_conformance.harness.core.registry import FAMILIES
from csi_conformance.harness.report.asked_again import print_asked_again
from csi_conformance.harness.report.findings import KIT_ERROR_NOTE, shown, verdict_counts, verdict_reasons
from csi_conformance.harness.report.unexamined import Unexamined, batched_coverage, examined_words, unexamined_groups
from csi_conformance.harness.report.values import one_line
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

__all__ = ["LOG_WIDTH", "STYLES", "ConsoleReporter", "stdout_console", "summary_table"]

STYLES = {Status.PASS: "green", Status.NOT_APPLICABLE: "dim", Status.SKIP: "dim", Status.UNVERIFIED: "cyan",
          Status.INFO: "blue", Status.AMBIGUOUS: "magenta", Status.ERROR: "bold magenta",
          Status.WARN: "yellow", Status.FAIL: "bold red"}
VERDICT_STYLES = {"conformant": "bold green", "not conformant": "bold red", "inconclusive": "bold yellow",
                  "not run": "bold yellow"}
_LISTED = (Status.FAIL, Status.ERROR, Status.WARN, Status.UNVERIFIED)
SHOWN_VALUE = 300
"""Characters of a value a console line shows; the reports hold all of it."""
SHOWN_CHECKS = 8
"""Checks named on one console line of checks that examined nothing for one reason."""
_UNEXAMINED = ((Status.SKIP, "checks that could apply examined nothing, so they certify nothing; why:", SHOWN_VALUE),
               (Status.NOT_APPLICABLE, "checks that cannot apply to this run's mode; why:", 120))
"""The statuses of checks that examined nothing, listed in this order: the heading, and the characters of a
reason a line shows (an N/A reason is expected of the mode: shown shorter)."""
_ALWAYS_COUNTED = (Status.PASS, Status.SKIP, Status.FAIL)
"""Columns of the summary table even when zero; other statuses get a column only when they occur."""


class ConsoleReporter:
    """Consumes the engine's events: `reporter.handle(event)`, or pass `reporter.handle` as `on_event`."""

    def __init__(self, console: Console | None = None, *, gate: Status = Status.FAIL) -> None:
        self.console = console or stdout_console()
        self.gate = gate
        self._progress: Progress | None = None
        self._task: int | None = None
        self._total = 0
        self._done = 0

    def handle(self, event: Event) -> None:
        if isinstance(event, RunStarted):
            self._started(event.total, event.answer_checks)
        elif isinstance(event, PhaseStarted):
            self._phase(event.name)
        elif isinstance(event, CheckStarted):
            self._check_started(event.check_id)
        elif isinstance(event, CheckFinished):
            self._check_finished(event.result)
        elif isinstance(event, TargetThrottled):
            self._throttled(event)
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
    def _started(self, total: int, answer_checks: int) -> None:
        self._total, self._done, self._since = total, 0, time.monotonic()
        if not self.console.is_terminal:
            later = (f" ({answer_checks} judge every answer: their status comes at the end)"
                     if answer_checks else "")
            self.console.print(Text(f"Running {total} checks{later}"))
            return
        self._progress = Progress(SpinnerColumn(), TextColumn("{task.description}"), BarColumn(),
                                  MofNCompleteColumn(), TimeElapsedColumn(), console=self.console, transient=True)
        self._task = self._progress.add_task("starting", total=total)
        self._progress.start()

    def _throttled(self, event: TargetThrottled) -> None:
        """Said as it happens: a run held back by 429s must not look like a hung one."""
        rate = event.requests / max(time.monotonic() - self._since, 1e-3)
        self.console.print(Text(f"The target answers HTTP 429 (rate limited): {event.answers} so far, in "
                                f"{event.requests} requests; each waits out its Retry-After or a back-off. "
                                f"{rate_hint(rate)}", style="yellow"), soft_wrap=True)

    def _phase(self, name: str) -> None:
        if self._progress is not None and self._task is not None:
            self._progress.update(self._task, description=one_line(name))
        elif not self.console.is_terminal:
            self.console.print(Text(f"… {one_line(name)}"))

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
                                         (f"{status.value:<10}", STYLES[status]), " ", one_line(check.check_id)))

    # -- the end -------------------------------------------------------------------------
    def print_summary(self, result: RunResult) -> None:
        """Summary table, FAIL, ERROR and WARN findings one line each, what stops a verdict, then the verdict."""
        self.console.print()
        self.console.print(Text(f"{one_line(result.target)}  profile {result.profile}  seed {result.seed}  "
                                f"{result.requests} requests in {result.duration:.1f} s"))
        if result.scenario is not None:
            over = result.scenario if result.scenario.startswith("ledger ") else f"scenario {result.scenario}"
            self.console.print(Text(f"compared with a reference server over {one_line(over)}"))
        self.console.print(summary_table(result))
        self._print_findings(result)
        self._print_throttled(result)
        print_asked_again(self.console, result)
        self._print_partial(result)
        self._print_unexamined(result)
        self._print_baseline(result)
        self._print_inconclusive(result)
        word = result.verdict(self.gate)
        threshold = f"Threshold {self.gate.value} (--fail-on)"
        blocking = len(result.blocking(self.gate))
        if not blocking and word == "inconclusive":
            line = Text(f"{threshold}: no finding at or above it, but the run is inconclusive", style="bold yellow")
        elif not blocking:
            line = Text(f"{threshold}: no finding at or above it", style="bold green")
        else:
            line = Text(f"{threshold}: {blocking} finding(s) at or above it", style="bold red")
        self.console.print(line)
        self.console.print(Text(f"Verdict: {word.upper()} (exit {result.exit_code(self.gate)}): "
                                f"{verdict_counts(result, self.gate)}", style=VERDICT_STYLES[word]), soft_wrap=True)

    def _print_findings(self, result: RunResult) -> None:
        """One line per FAIL, ERROR or WARN finding not in the baseline: cut to the width on a terminal,
        whole in a log."""
        terminal = self.console.is_terminal
        listed = sorted((f for f in result.findings if f.status in _LISTED and not f.baselined),
                        key=lambda f: (-f.status.rank, f.check_id))
        for finding in listed:
            self.console.print(_finding_line(finding), no_wrap=True, overflow="ellipsis" if terminal else "ignore",
                               crop=terminal)
        others = [f for f in result.findings if f.status not in _LISTED and not f.baselined]
        if others:
            tally = defaultdict(int)
            for finding in others:
                tally[finding.status.value] += 1
            counts = ", ".join(f"{count} {status}" for status, count in sorted(tally.items()))
            self.console.print(Text(f"{counts} finding(s) below WARN: see the reports", style="dim"))

    def _print_throttled(self, result: RunResult) -> None:
        if result.throttled:
            rate = result.requests / max(result.duration, 1e-3)
            self.console.print(Text(f"Rate limited: {result.throttled} of the {result.requests} answers were HTTP "
                                    f"429. {rate_hint(rate)}", style="yellow"), soft_wrap=True)

    def _print_partial(self, result: RunResult) -> None:
        """One line: the checks that passed over part of their work (the reports say what each did not reach)."""
        partial = [check.check_id for check in result.checks if check.partial]
        if partial:
            named = ", ".join(partial[:6]) + (f" and {len(partial) - 6} more" if len(partial) > 6 else "")
            self.console.print(Text(f"Partial: {len(partial)} check(s) passed over part of their work ({named}); "
                                    "the reports say what each did not reach", style="dim"), soft_wrap=True)

    def _print_unexamined(self, result: RunResult) -> None:
        """Every SKIP check with why it examined nothing, one line per reason; the N/A checks likewise, their
        reasons cut shorter; then what the checks of batched trees examined, when the target holds some."""
        for status, heading, limit in _UNEXAMINED:
            groups = unexamined_groups(result, status)
            if groups:
                count = sum(len(group.checks) for group in groups)
                self.console.print(Text(f"{count} {status.value}: {heading}", style="dim"), soft_wrap=True)
            for group in groups:
                self.console.print(_unexamined_line(group, limit), soft_wrap=True)
        batched = batched_coverage(result)
        if batched is not None:
            trees = f"{batched.trees} on the target; " if batched.trees else ""
            examined = ", ".join(f"{one_line(c.check_id)} {examined_words(c)} ({c.status.value}"
                                 f"{', partial' if c.partial else ''})" for c in batched.checks)
            self.console.print(Text(f"Batched trees: {trees}their checks examined: {examined}"), soft_wrap=True)

    def _print_baseline(self, result: RunResult) -> None:
        """One line: how many findings the baseline excused, and how many entries went stale."""
        if result.baseline is None:
            return
        known = sum(1 for finding in result.findings if finding.baselined)
        stale = result.stale_baseline
        line = f"Baseline: {known} known finding(s) not counted by the gate"
        if stale:
            named = ", ".join(f"{one_line(e.check)} ({one_line(e.method or 'any method')})" for e in stale[:3])
            more = f" and {len(stale) - 3} more" if len(stale) > 3 else ""
            line += (f"; {len(stale)} stale entr{'y' if len(stale) == 1 else 'ies'} matched no finding: "
                     f"{named}{more}; remove them from the baseline (report.json lists them)")
        self.console.print(Text(line, style="yellow" if stale else "dim"), soft_wrap=True)

    def _print_inconclusive(self, result: RunResult) -> None:
        word = "Not run" if result.error else "Inconclusive"
        for reason in verdict_reasons(result, self.gate):
            self.console.print(Text(f"{word}: {one_line(reason)}", style="yellow"), soft_wrap=True)


def _unexamined_line(group: Unexamined, limit: int) -> Text:
    """`SKIP  a.b, c.d: why`: the checks that examined nothing for one reason (the first few named)."""
    named = ", ".join(one_line(check) for check in group.checks[:SHOWN_CHECKS])
    more = f" and {len(group.checks) - SHOWN_CHECKS} more" if len(group.checks) > SHOWN_CHECKS else ""
    reason = one_line(group.reason)
    reason = reason if len(reason) <= limit else reason[: limit - 1] + "…"
    return Text.assemble((f"{group.status.value:<5}", STYLES[group.status]), " ", (named, "bold"), more,
                         f": {reason}")


def _finding_line(finding: Finding) -> Text:
    view = shown(finding, limit=SHOWN_VALUE)
    path = view.path
    count = f" ×{finding.occurrences}" if finding.occurrences > 1 else ""
    kit = f" [{KIT_ERROR_NOTE}]" if finding.status is Status.ERROR else ""
    return Text.assemble(
        (f"{finding.status.value:<5}", STYLES[finding.status]), " ", (one_line(finding.check_id), "bold"),
        " ", one_line(finding.method or "-"), "  ", one_line(finding.title), count, kit,
        f" at {one_line(path)}" if path else "", ": expected ", one_line(view.expected), ", received ",
        one_line(view.received))


def summary_table(result: RunResult) -> Table:
    """Families as rows, statuses as columns, each cell the number of checks; a total row last.

    Only the statuses that occur get a column (PASS, SKIP and FAIL always do), so it fits 80 columns.
    """
    counts: dict[str, dict[Status, int]] = defaultdict(lambda: dict.fromkeys(Status, 0))
    for check in result.checks:
        counts[check.family][check.status] += 1
    families = [f for f in FAMILIES if f in counts] + sorted(set(counts) - set(FAMILIES))
    totals = {s: sum(counts[f][s] for f in families) for s in Status}
    statuses = [s for s in Status if totals[s] or s in _ALWAYS_COUNTED]
    table = Table(title="Checks per family and status")
    table.add_column("Family")
    for status in statuses:
        table.add_column(status.value, justify="right", style=STYLES[status])
    table.add_column("Total", justify="right")
    for family in families:
        row = counts[family]
        table.add_row(family, *(_count(row[s]) for s in statuses), str(sum(row.values())))
    table.add_section()
    table.add_row(Text("total", style="bold"), *(_count(totals[s]) for s in statuses), str(len(result.checks)))
    return table


def _count(value: int) -> Text:
    return Text(str(value), style="" if value else "dim")


LOG_WIDTH = 200
"""Columns of a console that is no terminal (a CI log, a pipe): wide enough that no line breaks mid-word."""


def stdout_console() -> Console:
    """The console a face writes to: the terminal's width, or `LOG_WIDTH` when it is no terminal."""
    terminal = Console(force_terminal=None)
    if terminal.is_terminal or os.environ.get("COLUMNS"):
        return terminal  # a terminal, or a width the user set
    return Console(force_terminal=None, width=LOG_WIDTH)


def rate_hint(rate: float) -> str:
    """What to try against a target that throttles at `rate` requests a second: about half of it."""
    return f"To ask more slowly: --rate {max(1, int(rate / 2))}"
