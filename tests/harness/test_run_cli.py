"""`csi run` end to end through the installed command: exit codes and reports.

Hostile targets, key leaks and interrupts have their own files (test_hostile_runs.py,
test_key_leaks.py, test_interrupt.py).
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import PROOF_CHECK

from .broken import VARIANTS, serving

CSI = Path(sys.executable).with_name("csi")
KEY = "k3y+Secret/value=ab&c-CSI"


def _csi(*args: str, cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([str(CSI), *args], cwd=cwd, capture_output=True, text=True, timeout=timeout)


def test_run_without_target_certifies_the_bundled_reference(tmp_path: Path) -> None:
    done = _csi("run", "--report-dir", "out", "--skip", PROOF_CHECK, cwd=tmp_path)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "Threshold FAIL (--fail-on): no finding at or above it" in done.stdout
    report = json.loads((tmp_path / "out" / "report.json").read_text())
    assert report["gate"]["passed"] and report["requests"] >= 300
    assert {p.name for p in (tmp_path / "out").iterdir()} == {"report.json", "junit.xml", "report.html"}


def test_findings_exit_1(tmp_path: Path) -> None:
    variant = next(v for v in VARIANTS if v.name == "balance-off-by-one")
    with serving(variant) as url:
        done = _csi("run", "--target", url, "--only", "consistency", "--report-dir", "out", cwd=tmp_path)
    assert done.returncode == 1
    assert "consistency.balance-by-owner" in done.stdout


def test_unreachable_target_exits_3_after_one_request_with_a_report(tmp_path: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    done = _csi("run", "--target", f"http://127.0.0.1:{port}", "--timeout", "2", cwd=tmp_path)
    assert done.returncode == 3 and "unreachable" in (done.stdout + done.stderr).lower()
    report = json.loads((tmp_path / "csi-report" / "report.json").read_text())
    assert report["requests"] == 1 and "unreachable" in report["precondition"].lower()


@pytest.mark.parametrize("args", [["--only", "no-such-family"], ["--rate", "fast"], ["--profile", "loose"],
                                  ["--keys", "missing.yaml"]])
def test_usage_errors_exit_2(tmp_path: Path, args: list[str]) -> None:
    assert _csi("run", "--target", "http://127.0.0.1:9", *args, cwd=tmp_path).returncode == 2


def test_gate_passed_only_for_a_run_that_passed_its_gate(tmp_path: Path) -> None:
    """`gate.passed` is what a CI script reads: true for a conformant run only, never for one that was not run,
    inconclusive or failed (interrupted: tests/harness/test_interrupt.py)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        closed = f"http://127.0.0.1:{probe.getsockname()[1]}"
    variant = next(v for v in VARIANTS if v.name == "balance-off-by-one")
    with serving(None) as clean, serving(variant) as broken:
        runs = {"conformant": ["--target", clean, "--only", "health"],
                "not conformant": ["--target", broken, "--only", "consistency.balance-by-owner"],
                "inconclusive": ["--target", closed, "--timeout", "2"],
                "not run": ["--target", clean, "--max-requests", "0"]}
        codes = {verdict: _csi("run", *args, "--report-dir", verdict, cwd=tmp_path).returncode
                 for verdict, args in runs.items()}
    assert codes == {"conformant": 0, "not conformant": 1, "inconclusive": 3, "not run": 2}
    for verdict in runs:
        gate = json.loads((tmp_path / verdict / "report.json").read_text())["gate"]
        assert (gate["verdict"], gate["passed"]) == (verdict, verdict == "conformant"), gate
