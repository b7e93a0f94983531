"""`csi ambiguities`: the points the spec leaves open, and which reading a target followed.

For spec authors. Without `--report` nothing is run: every ambiguity point of the contract is
printed with its clause, the question, each reading with the source it comes from, and what
observed practice does. With `--report report.json` (written by `csi run`) each point also
shows the readings the certified target's answers followed, from the report's `observations`;
the profile decided the verdict, the observation is reported either way.

    csi ambiguities
    csi ambiguities --report reports/report.json --json
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from harness.core.errors import ConfigError, JsonError
from harness.report.values import one_line
from schema import Contract, jsonio

__all__ = ["ambiguity_rows", "read_observations", "register"]


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("ambiguities", help="the spec's open points and the readings a target followed")
    parser.add_argument("--report", type=Path, metavar="REPORT_JSON",
                        help="a report.json of `csi run`: add the readings that target followed")
    parser.add_argument("--json", action="store_true", help="print the points as JSON")
    parser.set_defaults(handler=_ambiguities)


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


def ambiguity_rows(contract: Contract, observations: dict[str, dict] | None = None) -> list[dict[str, Any]]:
    """One entry per ambiguity point; `followed` and `counts` only when observations are given.

    `followed` is the readings every touching answer was consistent with, `[]` when the answers
    disagreed, and None when no answer touched the point (or no report was given).
    """
    rows = []
    for amb in contract.ambiguities.values():
        row: dict[str, Any] = {
            "id": amb.id, "clause": amb.clause, "subject": amb.subject, "question": amb.question,
            "observed_practice": amb.observed,
            "readings": [{"name": r.name, "source": r.source} for r in amb.readings.values()],
        }
        if observations is not None:
            seen = observations.get(amb.id)
            row["followed"] = list(seen.get("readings", [])) if seen else None
            row["counts"] = dict(seen.get("counts", {})) if seen else {}
            row["answers"] = seen.get("answers", 0) if seen else 0
        rows.append(row)
    return rows


def _ambiguities(args: argparse.Namespace, console: Console | None = None) -> int:
    console = console or Console()
    contract = Contract.default()
    target, observations = read_observations(args.report) if args.report else (None, None)
    rows = ambiguity_rows(contract, observations)
    if args.json:
        console.out(jsonio.dumps({"target": target, "ambiguities": rows}), highlight=False)
        return 0
    console.print(_table(rows, target))
    return 0


def _table(rows: list[dict[str, Any]], target: str | None) -> Table:
    title = f"{len(rows)} points the spec leaves open"
    if target is not None:
        title += f": readings followed by {one_line(target)}"
    table = Table(title=Text(title), expand=True, show_lines=True)
    table.add_column("Point", no_wrap=True)
    table.add_column("Question", ratio=2, overflow="fold")
    table.add_column("Readings (source)", ratio=2, overflow="fold")
    if target is not None:
        table.add_column("Target followed", ratio=1, overflow="fold")
    for row in rows:
        point = Text.assemble((row["id"], "bold"), f"\n{row['clause']}\nobserved: {row['observed_practice']}")
        readings = "\n".join(f"{r['name']}: {r['source']}" for r in row["readings"])
        cells = [point, Text(row["question"]), Text(readings)]
        if target is not None:
            cells.append(_followed(row))
        table.add_row(*cells)
    return table


def _followed(row: dict[str, Any]) -> Text:
    if row["followed"] is None:
        return Text("not touched by any answer", style="dim")
    counts = ", ".join(f"{name} {count}/{row['answers']}" for name, count in row["counts"].items())
    if not row["followed"]:
        return Text(f"no single reading ({counts})", style="yellow")
    same = row["observed_practice"] in row["followed"]
    return Text(f"{', '.join(row['followed'])} ({counts})", style="" if same else "magenta")
