"""`csi report diff A B` over real runs of one target: exit 1 on a regression only, 0 on an improvement, 2 for
reports that cannot be compared; the same changes as text, Markdown and JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from csi_conformance.harness.faces.cli import main

from tests.harness.site.runs import PHOTON, certified


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("diff-reports")
    return {"clean": certified(folder, "vendor", None, version="1.9"),
            "broken": certified(folder, "vendor", "html-health", version="1.10"),
            "narrow": certified(folder, "vendor", None, version="1.11", only=["envelope"]),
            "photon": certified(folder, "vendor", None, version="2.0", api=PHOTON)}


def diff(capsys: pytest.CaptureFixture[str], before: Path, after: Path, *form: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(["report", "diff", str(before), str(after), *form])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_a_planted_regression_exits_1(runs: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = diff(capsys, runs["clean"], runs["broken"], "--format", "json")
    assert code == 1
    changes = json.loads(out)["changes"]
    assert {(c["check"], c["kind"], c["before"], c["after"]) for c in changes} == {
        ("transport.answered", "new failure", "PASS", "FAIL")}


def test_an_improvement_exits_0(runs: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = diff(capsys, runs["broken"], runs["clean"])
    assert code == 0
    assert "fixed" in out and "transport.answered" in out and "0 regression" in out


def test_a_check_that_stopped_running_is_a_regression(runs: dict[str, Path],
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = diff(capsys, runs["clean"], runs["narrow"], "--format", "json")
    stopped = {c["check"] for c in json.loads(out)["changes"] if c["kind"] == "stopped running"}
    clean = json.loads(runs["clean"].read_text())["checks"]
    assert code == 1 and stopped == {c["id"] for c in clean if c["family"] == "transport"}
    code, out, _ = diff(capsys, runs["narrow"], runs["clean"], "--format", "json")
    assert code == 0 and {c["kind"] for c in json.loads(out)["changes"]} == {"started"}


def test_the_markdown_is_a_table_for_a_pull_request(runs: dict[str, Path],
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = diff(capsys, runs["clean"], runs["broken"], "--format", "markdown")
    assert code == 1
    assert "| new failure (regression) | `transport.answered` | PASS | FAIL |" in out.splitlines()


def test_runs_over_another_contract_cannot_be_compared(runs: dict[str, Path],
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = diff(capsys, runs["clean"], runs["photon"])
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "contract" in err and PHOTON in err


def test_a_report_of_another_format_cannot_be_compared(runs: dict[str, Path], tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(runs["clean"].read_text())
    data["format_version"] = 4
    other = tmp_path / "report.json"
    other.write_text(json.dumps(data))
    code, out, err = diff(capsys, other, runs["broken"])
    assert code == 2 and out == "" and err.count("\n") == 1 and "format 4" in err
