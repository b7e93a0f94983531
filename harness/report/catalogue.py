"""`csi checks`: the catalogue of registered checks, as a table for people or JSON for tools."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table
from rich.text import Text

from harness.core.registry import Registry
from harness.report.coverage import catalogue
from schema import jsonio

__all__ = ["print_catalogue"]


def print_catalogue(registry: Registry, *, as_json: bool, console: Console | None = None) -> None:
    """Print every check as one JSON array (`--json`) or as a table for people."""
    console = console or Console()
    entries = catalogue(registry)
    if as_json:
        console.out(jsonio.dumps(entries), highlight=False)
        return
    table = Table(title=f"{len(entries)} checks", expand=True)
    for column in ("Check", "Family", "Kind", "Basis", "Methods"):
        table.add_column(column, no_wrap=True)
    table.add_column("Clauses", overflow="fold", max_width=16)
    table.add_column("Description", overflow="fold", ratio=1)
    for entry in entries:
        methods = "—" if entry["methods"] is None else str(len(entry["methods"]))
        cells = (entry["id"], entry["family"], entry["kind"], entry["basis"], methods, " ".join(entry["clauses"]),
                 entry["description"])
        table.add_row(*(Text(cell) for cell in cells))
    console.print(table)
