"""Python literals where JSON belongs: what the reports of a run must never show.

A finding keeps its values as JSON values and every writer builds its text from them, so a Python
repr (`{'value': 1}`, `[None]`, `b'…'`) in a report means a value travelled as `str()` somewhere.
"""

from __future__ import annotations

import html
import io
import re
import xml.etree.ElementTree as ET

from csi_conformance.groundwork import jsonio
from csi_conformance.harness.core.model import RunResult
from csi_conformance.harness.report import render_html, to_json
from csi_conformance.harness.report.console import ConsoleReporter
from csi_conformance.harness.report.junit import build_junit
from csi_conformance.schema import Contract
from rich.console import Console

__all__ = ["PYTHON_LITERAL", "python_literals", "reports_of"]

PYTHON_LITERAL = re.compile(
    r"[\[{(,:]\s*'[^'\n]{0,80}'\s*[:,\]})]"  # a quoted string inside a Python list, dict or tuple
    r"|[\[{(,:]\s*(?:None|True|False)\s*[,\]})]"  # Python's null and booleans inside one
    r"|\bb'[^'\n]*'"  # bytes
)


def reports_of(result: RunResult, contract: Contract) -> dict[str, str]:
    """The text of every writer's report of a run: console summary, report.json, junit.xml, report.html."""
    stream = io.StringIO()
    ConsoleReporter(Console(file=stream, width=200, force_terminal=False)).print_summary(result)
    junit = ET.tostring(build_junit(result), encoding="unicode")
    return {"console": stream.getvalue(), "report.json": jsonio.dumps(to_json(result)),
            "junit.xml": html.unescape(junit), "report.html": html.unescape(render_html(result, contract))}


def python_literals(result: RunResult, contract: Contract) -> dict[str, list[str]]:
    """Each report's Python literals (none, for a kit whose findings are values end to end)."""
    found = {name: PYTHON_LITERAL.findall(text) for name, text in reports_of(result, contract).items()}
    return {name: literals for name, literals in found.items() if literals}
