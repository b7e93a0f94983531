"""`csi ambiguities`: the points the spec leaves open, and which reading each certified target followed.

For spec authors. Without `--report` nothing is run: every ambiguity point of the contract is
printed with its clauses, the spec's own words, the question, each reading with the source it comes
from, what observed practice does and the checks it affects. With `--report A.json B.json …`
(each written by `csi run`) each point also shows, per target (a vendor), the readings its answers
followed, from the report's `observations`, or why that run could not tell: one table of who follows
which reading. The profile decided each run's verdict; the observation is reported either way.

    csi ambiguities
    csi ambiguities --report vendor-a/report.json vendor-b/report.json --json
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from csi_conformance.groundwork import jsonio
from csi_conformance.harness.core.errors import ConfigError, JsonError
from csi_conformance.harness.report.console import stdout_console
from csi_conformance.harness.report.values import one_line
from csi_conformance.schema import Contract
from rich.console import Console
from rich.table import Table
from rich.text import Text

__all__ = ["Report", "ambiguity_rows", "read_observations", "read_reports", "register"]

UNRECORDED = "not exercised by this run: the report does not say why"
"""Why a point no answer told, when the report gives no reason (one older than the reasons, or a merged one)."""


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("ambiguities", help="the spec's open points and the readings targets followed")
    parser.add_argument("--report", type=Path, nargs="+", metavar="REPORT_JSON",
                        help="report.json files of `csi run`, one per target: add the readings each followed")
    parser.add_argument("--json", action="store_true", help="print the points as JSON")
    parser.set_defaults(handler=_ambiguities)


@dataclass(frozen=True)
class Report:
    """One certified target, as a report.json tells it: its name in the table, and its observations."""

    label: str
    target: str
    path: Path
    observations: dict[str, dict]


def read_observations(path: Path) -> tuple[str, dict[str, dict]]:
    """The target and its observations (by ambiguity id) of a report.json; `ConfigError` when unreadable."""
    try:
        report = jsonio.loads(Path(path).read_bytes())
    except (OSError, JsonError) as exc:
        raise ConfigError(f"{path}: cannot read the report: {exc}") from exc
    observations = report.get("observations") if isinstance(report, dict) else None
    if not isinstance(observations, list) or not all(isinstance(o, dict) and "ambiguity" in o for o in observations):
        raise ConfigError(f"{path}: not a report.json of `csi run` (no `observations` list)")
    return str(report.get("target", "?")), {o["ambiguity"]: o for o in observations}


def read_reports(paths: list[Path]) -> list[Report]:
    """Each report's target and observations; two reports of one target are told apart by their file."""
    read = [(path, *read_observations(path)) for path in paths]
    targets = [target for _, target, _ in read]
    return [Report(target if targets.count(target) == 1 else f"{target} ({path})", target, path, observations)
            for path, target, observations in read]


def ambiguity_rows(contract: Contract, observations: dict[str, dict] | None = None,
                   reports: list[Report] | None = None) -> list[dict[str, Any]]:
    """One entry per ambiguity point; with `reports`, `targets` holds what each target followed.

    Per target, `followed` is the readings every touching answer was consistent with, `[]` when the
    answers disagreed, and None when no answer touched the point (`reason` then says why). With one
    report (or `observations` alone) those members also sit on the row itself, as before.
    """
    if observations is not None and reports is None:
        reports = [Report("?", "?", Path("?"), observations)]
    rows = []
    for amb in contract.ambiguities.values():
        row: dict[str, Any] = {
            "id": amb.id, "clause": amb.clause, "clauses": list(amb.clauses), "subject": amb.subject,
            "section": contract.clauses[amb.clause].section, "quote": amb.quote, "question": amb.question,
            "observed_practice": amb.observed,
            "readings": [{"name": r.name, "source": r.source} for r in amb.readings.values()],
            "checks": list(amb.checks), "evidence": amb.evidence,
        }
        if reports is not None:
            row["targets"] = [{"target": report.label, **_followed_by(report, amb.id)} for report in reports]
            if len(reports) == 1:
                row.update({key: value for key, value in row["targets"][0].items() if key != "target"})
        rows.append(row)
    return rows


def _followed_by(report: Report, amb_id: str) -> dict[str, Any]:
    seen = report.observations.get(amb_id)
    answers = seen.get("answers", 0) if seen else 0
    reason = None if answers else (seen.get("reason") if seen and seen.get("reason") else UNRECORDED)
    return {"followed": list(seen.get("readings", [])) if answers else None,
            "counts": dict(seen.get("counts", {})) if seen else {}, "answers": answers, "reason": reason}


def _ambiguities(args: argparse.Namespace, console: Console | None = None) -> int:
    console = console or stdout_console()
    contract = Contract.default()
    reports = read_reports(args.report) if args.report else None
    rows = ambiguity_rows(contract, reports=reports)
    if args.json:
        labels = [report.label for report in reports] if reports else []
        console.out(jsonio.dumps({"target": labels[0] if len(labels) == 1 else None, "targets": labels,
                                  "ambiguities": rows}), highlight=False)
        return 0
    labels = [report.label for report in reports or []]
    console.print(_table(rows, labels))
    if len(labels) > 1:
        console.print(_untold(rows, labels))
    return 0


def _table(rows: list[dict[str, Any]], targets: list[str]) -> Table:
    title = f"{len(rows)} points the spec leaves open"
    if targets:
        told = [sum(1 for row in rows if row["targets"][i]["answers"]) for i in range(len(targets))]
        title += ": readings followed by " + ", ".join(f"{one_line(t)} ({n} told)" for t, n in zip(targets, told,
                                                                                                 strict=True))
    table = Table(title=Text(title), expand=True, show_lines=True)
    table.add_column("Point", max_width=POINT_WIDTH, overflow="fold")
    table.add_column("Question (the spec's words)" if len(targets) < 2 else "Question", ratio=3, overflow="fold")
    table.add_column("Readings (source)", ratio=2, overflow="fold")
    for target in targets:
        table.add_column(Text("Target followed" if len(targets) == 1 else one_line(target)), ratio=1, overflow="fold")
    for row in rows:
        point = Text.assemble((row["id"], "bold"), f"\n{', '.join(row['clauses'])}\nobserved: "
                              f"{row['observed_practice']}")
        question = Text(row["question"])
        if len(targets) < 2:  # one table of who follows what stays narrow: the spec's words are in --json
            question.append(f"\n§{row['section']}: \"{' '.join(row['quote'].split())}\"", style="dim")
        readings = "\n".join(f"{r['name']}: {r['source']}" for r in row["readings"])
        table.add_row(point, question, Text(readings),
                      *(_followed(row, seen, every=len(targets) == 1) for seen in row.get("targets", [])))
    return table


def _followed(row: dict[str, Any], seen: dict[str, Any], *, every: bool) -> Text:
    """What one target followed: the readings and how many answers (`every`: each reading's count). With
    several targets a point a run did not tell says only that; `_untold` says why, under the table."""
    if seen["followed"] is None:
        return Text(seen["reason"] if every else NOT_TOLD, style="dim")
    shown = {name: count for name, count in seen["counts"].items()
             if every or not seen["followed"] or name in seen["followed"]}
    counts = ", ".join(f"{name} {count}/{seen['answers']}" for name, count in shown.items())
    if not seen["followed"]:
        return Text(f"no single reading ({counts})", style="yellow")
    same = row["observed_practice"] in seen["followed"]
    return Text(f"{', '.join(seen['followed'])} ({counts})" if every else counts, style="" if same else "magenta")


POINT_WIDTH = 26
"""The point's column: its longest id whole, its clauses wrapped under it, the rest of the width to targets."""
NOT_TOLD = "not exercised by this run"
"""How a report's reason for a point no answer told begins."""


def _untold(rows: list[dict[str, Any]], targets: list[str]) -> Text:
    """Under a table of several targets: for each, the points its run did not tell, and why."""
    text = Text()
    for i, target in enumerate(targets):
        untold = [(row["id"], row["targets"][i]["reason"]) for row in rows if row["targets"][i]["followed"] is None]
        if untold:
            text.append(f"{NOT_TOLD.capitalize()} of {one_line(target)}:\n", style="bold")
            for amb_id, reason in untold:
                text.append(f"  {amb_id}: {reason.removeprefix(NOT_TOLD).removeprefix(': ')}\n")
    return text
