"""`pytest --csi-target URL` turns the catalogue into pytest tests over the same engine, gating like csi run."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from .broken import VARIANTS, serving


def _pytest(url: str, tmp_path: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rfs",
                           "--csi-target", url, *extra], cwd=tmp_path, capture_output=True, text=True, timeout=600)


def test_clean_reference_passes_as_pytest(tmp_path: Path) -> None:
    with serving(None) as url:
        done = _pytest(url, tmp_path, "-v", "--csi-only", "health", "--csi-only", "envelope",
                       "--csi-report-dir", "reports")
    assert done.returncode == 0, done.stdout[-3000:]
    assert "csi::health.ok PASSED" in done.stdout and "csi::verdict PASSED" in done.stdout  # the README's ids
    assert "failed" not in done.stdout and "csi: conformant (csi run would exit 0)" in done.stdout
    report = json.loads((tmp_path / "reports" / "report.json").read_text())
    assert report["gate"]["verdict"] == "conformant" and {c["family"] for c in report["checks"]} == {"health",
                                                                                                    "envelope"}


def test_with_a_target_only_the_certification_runs(tmp_path: Path) -> None:
    """The README's command run inside a folder of tests (the kit's own clone, say) certifies the target and
    nothing else: the other tests are deselected, not run and not failed."""
    (tmp_path / "test_other.py").write_text("def test_other():\n    assert False\n")
    with serving(None) as url:
        done = _pytest(url, tmp_path, "-v", "--csi-only", "health")
    assert done.returncode == 0, done.stdout[-3000:]
    assert "test_other" not in done.stdout.replace("test_other.py", "") and "1 deselected" in done.stdout
    assert "csi::verdict PASSED" in done.stdout


def test_broken_variant_fails_its_check(tmp_path: Path) -> None:
    variant = next(v for v in VARIANTS if v.name == "health-not-ok")
    with serving(variant) as url:
        done = _pytest(url, tmp_path, "-q", "--csi-only", "health")
    assert done.returncode == 1
    assert "FAILED csi::health.ok" in done.stdout, done.stdout[-1500:]
    assert "Health is not ok" in done.stdout and "Reproduce: curl" in done.stdout


def test_k_narrows_the_run_itself(tmp_path: Path) -> None:
    with serving(None) as url:
        done = _pytest(url, tmp_path, "-q", "-k", "health", "--csi-report-dir", "reports")
    assert done.returncode == 0, done.stdout[-3000:]
    report = json.loads((tmp_path / "reports" / "report.json").read_text())
    assert {c["family"] for c in report["checks"]} == {"health"}  # the other checks were never run
    assert report["requests"] < 100  # the health family (each method asked once): a whole run sends thousands


def test_an_inconclusive_run_does_not_go_green(tmp_path: Path) -> None:
    with serving(None) as url:
        done = _pytest(url, tmp_path, "-q", "--csi-only", "params", "--csi-max-requests", "30")
    assert done.returncode == 1, done.stdout[-3000:]
    assert "FAILED csi::verdict" in done.stdout
    assert "inconclusive (csi run would exit 3)" in done.stdout and "request budget" in done.stdout


def test_a_bad_option_is_a_usage_error(tmp_path: Path) -> None:
    done = _pytest("http://127.0.0.1:9", tmp_path, "-q", "--csi-keys", "missing.yaml")
    assert done.returncode == 4 and "csi: " in done.stderr and "missing.yaml" in done.stderr
    done = _pytest("http://127.0.0.1:9", tmp_path, "-q", "--csi-only", "healt")
    assert done.returncode == 4 and "did you mean health" in done.stderr


def test_plugin_is_silent_without_a_target(tmp_path: Path) -> None:
    (tmp_path / "test_one.py").write_text("def test_one():\n    assert 1 + 1 == 2\n")
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "1 passed" in done.stdout
