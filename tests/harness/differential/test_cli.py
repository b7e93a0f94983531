"""`csi run --scenario` and `--baseline` through the installed command: exit codes and reports."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from csi_conformance.harness.report import SCHEMA_PATH
from csi_conformance.schema import Contract
from jsonschema import Draft202012Validator

from tests.conftest import PROOF_CHECK

from ..broken import serving
from . import variants

CSI = Path(sys.executable).with_name("csi")


def _csi(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    args = (*args, "--skip", PROOF_CHECK)  # the reference runs with the placeholder prover here
    return subprocess.run([str(CSI), "run", *args], cwd=cwd, capture_output=True, text=True, timeout=900)


def test_the_bundled_cases_replay_clean_on_the_reference(tmp_path: Path, contract: Contract) -> None:
    """fill -> check -> run: the reference over `default`, as a target, differs from itself in nothing,
    and every ambiguity point of the contract is seen."""
    done = _csi("--scenario", "default", "--report-dir", "out", cwd=tmp_path)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    report = json.loads((tmp_path / "out" / "report.json").read_text())
    assert report["scenario"] == "default" and report["findings"] == [] and report["notes"] == []
    statuses = {c["id"]: c["status"] for c in report["checks"]}
    assert statuses["differential.cases"] == statuses["differential.generated"] == "PASS"
    observed = {o["ambiguity"]: o["readings"] for o in report["observations"]}
    assert set(observed) == set(contract.ambiguities)
    assert all(amb.observed in observed[amb.id] for amb in contract.ambiguities.values())
    assert "compared with a reference server over scenario default" in done.stdout


def test_a_target_behind_the_scenario_exits_3(tmp_path: Path) -> None:
    with serving(variants.SLOT_BEHIND) as url:
        done = _csi("--target", url, "--scenario", "default", "--report-dir", "out", cwd=tmp_path)
    assert done.returncode == 3
    assert "indexed up to slot 1, but scenario default ends at slot" in done.stdout + done.stderr
    report = json.loads((tmp_path / "out" / "report.json").read_text())
    assert "indexed up to slot 1" in report["precondition"] and report["findings"] == []


def test_a_baseline_lets_known_findings_pass_and_lists_stale_entries(tmp_path: Path) -> None:
    (tmp_path / "baseline.yaml").write_text(
        "- {check: differential.generated, method: getCompressedBalanceByOwner}\n"
        "- {check: differential.generated, method: getCompressedAccount, reason: fixed long ago}\n")
    with serving(variants.BALANCE) as url:
        done = _csi("--target", url, "--scenario", "default", "--only", "differential.generated",
                    "--baseline", "baseline.yaml", "--report-dir", "out", cwd=tmp_path)
    assert done.returncode == 0, done.stdout[-3000:]
    report = json.loads((tmp_path / "out" / "report.json").read_text())
    assert Draft202012Validator(json.loads(SCHEMA_PATH.read_text())).is_valid(report)
    assert report["findings"] and all(f["baselined"] for f in report["findings"])
    assert all(f["reference_response"]["result"]["value"] + 1 == f["response"]["result"]["value"]
               for f in report["findings"])
    assert "Reference answer" in (tmp_path / "out" / "report.html").read_text()
    assert report["baseline"]["stale"] == [{"check": "differential.generated", "method": "getCompressedAccount",
                                            "title": None}]
    assert "stale entry matched no finding: differential.generated (getCompressedAccount)" in done.stdout


def test_a_malformed_baseline_exits_2(tmp_path: Path) -> None:
    (tmp_path / "baseline.yaml").write_text("- {check: no.such-check}\n")
    done = _csi("--target", "http://127.0.0.1:9", "--baseline", "baseline.yaml", cwd=tmp_path)
    assert done.returncode == 2 and "no check 'no.such-check'" in done.stderr
