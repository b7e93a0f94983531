"""The Python API (`from harness import certify`): a small pinned surface, the same run as `csi run`."""

from __future__ import annotations

from pathlib import Path

import pytest
from csi_conformance import harness
from csi_conformance.groundwork import jsonio
from csi_conformance.harness import RunOptions, RunResult, Status, certify

from .broken import serving


def test_the_public_names_are_pinned() -> None:
    assert harness.__all__ == ["Basis", "CheckResult", "Finding", "RunOptions", "RunResult", "Status", "certify"]
    assert all(getattr(harness, name) is not None for name in harness.__all__)
    with pytest.raises(AttributeError):
        harness.run  # noqa: B018  (not part of the API)


def test_certify_runs_what_csi_run_runs_and_writes_the_reports(tmp_path: Path) -> None:
    with serving(None) as url:
        result = certify({"target": url, "only": ["health"], "report-dir": str(tmp_path / "out")})
    assert isinstance(result, RunResult) and result.exit_code() == 0 and result.verdict() == "conformant"
    assert {c.check_id for c in result.checks} == {"health.ok", "health.slot", "health.slot-behind-answers",
                                                   "health.methods-served"}
    assert all(c.status is Status.PASS for c in result.checks)
    assert jsonio.loads((tmp_path / "out" / "report.json").read_bytes())["gate"]["exit_code"] == 0


def test_options_that_cannot_work_are_a_result_that_did_not_run_with_its_reports(tmp_path: Path) -> None:
    result = certify({"max-requests": "0", "report-dir": str(tmp_path / "out")})
    assert (result.exit_code(), result.verdict()) == (2, "not run")
    assert result.error.startswith("--max-requests:")
    report = jsonio.loads((tmp_path / "out" / "report.json").read_bytes())
    assert report["error"] == result.error and report["gate"]["verdict"] == "not run"


def test_checked_options_can_be_given_and_write_no_report(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    with serving(None) as url:
        options = RunOptions.from_inputs({"target": url, "only": ["health.slot"]}).replace(report_dir=None)
        result = certify(options)
    assert result.exit_code() == 0 and list(tmp_path.iterdir()) == []
