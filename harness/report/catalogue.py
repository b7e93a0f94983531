"""`csi checks`: the catalogue of registered checks, as text for people or JSON for tools.

Each check is a short block rather than a table row, so it reads at any width: the id and its
facts on one line, the description under it. On a terminal the description wraps to the width
and the id is bold; anywhere else (a pipe, a file) it is plain text, one line per fact, for grep.
"""

from __future__ import annotations

import textwrap

from csi_conformance.groundwork import jsonio
from csi_conformance.harness.core.registry import Registry
from csi_conformance.harness.report.coverage import catalogue
from rich.console import Console
from rich.text import Text

__all__ = ["catalogue_lines", "print_catalogue"]

INDENT = "    "


def print_catalogue(registry: Registry, *, as_json: bool, console: Console | None = None) -> None:
    """Print every check as one JSON array (`--json`) or as blocks for people."""
    console = console or Console()
    entries = catalogue(registry)
    if as_json:
        console.out(jsonio.dumps(entries), highlight=False)
        return
    if not console.is_terminal:
        console.file.write("\n".join(catalogue_lines(entries)) + "\n")
        return
    for line in catalogue_lines(entries)[:2]:
        console.print(Text(line, style="bold"))
    for entry in entries:
        console.print(Text.assemble((entry["id"], "bold"), "  ", (_facts(entry), "dim")), overflow="fold")
        console.print(_indented(entry["description"], console.width))


def catalogue_lines(entries: list[dict]) -> list[str]:
    """The catalogue as plain lines: a count, then per check its id and facts, and its description indented."""
    families = list(dict.fromkeys(entry["family"] for entry in entries))
    lines = [f"{len(entries)} checks in {len(families)} families: {', '.join(families)}",
             "kind `answer`: judges every answer of the run; `active`: sends requests of its own"]
    for entry in entries:
        lines += [f"{entry['id']}  {_facts(entry)}", INDENT + " ".join(entry["description"].split())]
    return lines


def _facts(entry: dict) -> str:
    methods = "every method" if entry["methods"] is None else f"{len(entry['methods'])} methods"
    return f"[{entry['kind']}, {entry['basis']}, {methods}; clauses {' '.join(entry['clauses'])}]"


def _indented(text: str, width: int) -> Text:
    """The description wrapped to the terminal's width under the id, so nothing is cut or folded mid-word."""
    wrapped = textwrap.wrap(" ".join(text.split()), width=max(20, width - len(INDENT)), break_on_hyphens=False)
    return Text("\n".join(INDENT + line for line in wrapped))
