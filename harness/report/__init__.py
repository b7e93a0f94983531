"""Reports of a run, all written from one `RunResult`: report.json, junit.xml, report.html, the console.

    paths = write_reports(result, Path("reports"), contract)   # [report.json, junit.xml, report.html]
    reporter = ConsoleReporter(); run(target, config, on_event=reporter.handle)

Each file is written atomically: an interrupted run leaves the previous report or none, never half
of one. `gate` is the lowest status that fails CI (`csi run` exits 1); it decides the verdict the
reports print and which JUnit test cases fail.
"""

from __future__ import annotations

from pathlib import Path

from csi_conformance.groundwork.errors import ConfigError
from csi_conformance.harness.core.model import RunResult, Status
from csi_conformance.harness.report.catalogue import print_catalogue
from csi_conformance.harness.report.console import ConsoleReporter
from csi_conformance.harness.report.coverage import catalogue, clause_coverage, render_coverage_markdown
from csi_conformance.harness.report.html import render_html, write_html
from csi_conformance.harness.report.json_report import to_json, write_json
from csi_conformance.harness.report.junit import build_junit, write_junit
from csi_conformance.harness.report.write import ensure_writable
from csi_conformance.schema import Contract

__all__ = [
    "SCHEMA_PATH",
    "ConsoleReporter",
    "build_junit",
    "catalogue",
    "clause_coverage",
    "ensure_writable",
    "print_catalogue",
    "render_coverage_markdown",
    "render_html",
    "to_json",
    "write_html",
    "write_json",
    "write_junit",
    "write_reports",
]

SCHEMA_PATH = Path(__file__).resolve().parent / "report.schema.json"
"""The JSON Schema (2020-12) documenting report.json."""


def write_reports(result: RunResult, directory: Path, contract: Contract | None = None, *,
                  gate: Status = Status.FAIL) -> list[Path]:
    """Write report.json, junit.xml and report.html into `directory` (created if missing).

    A file that cannot be written is an error of the kit's own I/O, not of the target: `ConfigError`
    with one line naming the file and why (exit 2), never a traceback.
    """
    directory = ensure_writable(directory)
    try:
        return [write_json(result, directory, gate=gate), write_junit(result, directory, gate=gate),
                write_html(result, directory, contract, gate=gate)]
    except OSError as exc:
        raise ConfigError(f"cannot write reports to {directory}: {exc.strerror or exc}") from None
