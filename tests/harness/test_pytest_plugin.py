"""`pytest --csi-target URL` turns the catalogue into pytest tests over the same engine."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from .broken import VARIANTS, serving


def _pytest(url: str, tmp_path: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-rfs",
                           "--csi-target", url, *extra], cwd=tmp_path, capture_output=True, text=True, timeout=300)


def test_clean_reference_passes_as_pytest(tmp_path: Path) -> None:
    with serving(None) as url:
        done = _pytest(url, tmp_path, "--csi-only", "params", "--csi-only", "health")
    assert done.returncode == 0, done.stdout[-2000:]
    assert " passed" in done.stdout and "failed" not in done.stdout


def test_broken_variant_fails_its_check(tmp_path: Path) -> None:
    variant = next(v for v in VARIANTS if v.name == "health-not-ok")
    with serving(variant) as url:
        done = _pytest(url, tmp_path, "--csi-only", "health")
    assert done.returncode == 1
    assert "FAILED csi::health.ok" in done.stdout, done.stdout[-1500:]
    assert "Health is not ok" in done.stdout


def test_plugin_is_silent_without_a_target(tmp_path: Path) -> None:
    (tmp_path / "test_one.py").write_text("def test_one():\n    assert 1 + 1 == 2\n")
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "1 passed" in done.stdout
