"""The kit's own I/O: a report folder that cannot be written is one clear line and exit 2, before any
request; an unreachable target still writes a report; a mistyped --only gets a suggestion."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from csi_conformance.harness.core.errors import ConfigError
from csi_conformance.harness.core.model import RunResult
from csi_conformance.harness.report import write_reports

CSI = Path(sys.executable).with_name("csi")


def _csi(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(CSI), *args], cwd=cwd, capture_output=True, text=True, timeout=300)


def test_an_unwritable_report_dir_is_one_line_and_exit_2_before_the_run(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("not a folder")
    done = _csi("run", "--target", "http://127.0.0.1:9", "--report-dir", "file/reports", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == ["csi: cannot write reports to file/reports: Not a directory"]
    assert done.stdout == ""  # nothing ran


def test_a_report_that_cannot_be_written_at_the_end_is_a_config_error(result: RunResult, tmp_path: Path) -> None:
    (tmp_path / "report.json").mkdir()  # the file's place is taken
    with pytest.raises(ConfigError, match=r"^cannot write reports to .*: Is a directory$"):
        write_reports(result, tmp_path)


def test_an_unreachable_target_still_writes_a_report(tmp_path: Path) -> None:
    done = _csi("run", "--target", "http://127.0.0.1:9", "--only", "health", "--report-dir", "out", cwd=tmp_path)
    assert done.returncode == 3, done.stderr
    report = json.loads((tmp_path / "out" / "report.json").read_text())
    assert report["gate"]["verdict"] == "inconclusive" and "unreachable" in report["precondition"]
    assert "Inconclusive" in (tmp_path / "out" / "report.html").read_text()
    assert "Traceback" not in done.stderr


def test_a_mistyped_only_suggests_the_name(tmp_path: Path) -> None:
    done = _csi("run", "--only", "healt", "--skip", "envelope.id-echod", "--report-dir", "out", cwd=tmp_path)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1
    assert done.stderr.startswith("csi: --only/--skip: healt is no check id, family or method; did you mean health ")
    assert "; envelope.id-echod is no check id, family or method; did you mean envelope.id-echoed" in done.stderr
