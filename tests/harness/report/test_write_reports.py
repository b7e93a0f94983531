"""write_reports writes the three files from one result; the package surface is pinned."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from csi_conformance.groundwork import jsonio
from csi_conformance.harness import report
from csi_conformance.harness.core.model import RunResult, Status
from csi_conformance.harness.report import write_reports
from csi_conformance.schema import Contract


def test_writes_all_three_into_a_new_directory(result: RunResult, contract: Contract, tmp_path: Path) -> None:
    directory = tmp_path / "out" / "reports"
    paths = write_reports(result, directory, contract)
    assert [p.name for p in paths] == ["report.json", "junit.xml", "report.html"]
    assert sorted(p.name for p in directory.iterdir()) == ["junit.xml", "report.html", "report.json"]
    report = jsonio.loads(paths[0].read_bytes())
    junit = ET.parse(paths[1]).getroot()
    assert report["summary"]["checks"]["FAIL"] == int(junit.get("failures")) - 1 == 2  # and the verdict
    assert '<p class="word">Not conformant</p>' in paths[2].read_text(encoding="utf-8")


def test_one_gate_for_every_report(passing: RunResult, contract: Contract, tmp_path: Path) -> None:
    paths = write_reports(passing, tmp_path, contract, gate=Status.WARN)
    assert jsonio.loads(paths[0].read_bytes())["gate"]["passed"] is False
    assert ET.parse(paths[1]).getroot().get("failures") == "2"  # the check, and the verdict
    assert "1 finding at or above WARN" in paths[2].read_text(encoding="utf-8")


def test_public_names() -> None:
    assert set(report.__all__) == {
        "SCHEMA_PATH", "ConsoleReporter", "build_junit", "catalogue", "clause_coverage", "ensure_writable",
        "print_catalogue",
        "render_coverage_markdown", "render_html", "to_json", "write_html", "write_json",
        "write_junit", "write_reports"}
    assert all(hasattr(report, name) for name in report.__all__)
    assert report.SCHEMA_PATH.is_file()
