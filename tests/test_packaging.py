"""The kit works as an installed wheel, outside the checkout: the contract ships inside it."""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(out), str(ROOT)],
        capture_output=True, text=True,
    )
    assert done.returncode == 0, done.stderr
    (path,) = out.glob("csi_conformance-*.whl")
    return path


def test_wheel_carries_the_contract(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    for required in ("schema/components.yaml", "schema/ambiguities.yaml", "schema/clauses.yaml",
                     "schema/meta/method.yaml", "schema/methods/getValidityProof.yaml", "schema/dist/openapi.json",
                     "cases/scenarios/default.yaml", "cases/scenarios/empty.yaml",
                     "reference_server/scenario.schema.yaml", "harness/report/report.schema.json",
                     "harness/fuzz/schemathesis.toml"):
        assert required in names, required
    assert not any(name.startswith("tests/") for name in names)


def test_installed_wheel_exports_outside_the_checkout(wheel: Path, tmp_path: Path) -> None:
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(target),
                    str(wheel)], check=True)
    # -S keeps the checkout's editable install out of sys.path; dependencies come from this venv.
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(target), sysconfig.get_paths()["purelib"],
                                                         sysconfig.get_paths()["platlib"]])}
    code = ("import sys, schema; from harness.faces.cli import main; "
            "assert schema.__file__.startswith(sys.argv[1]), schema.__file__; "
            "sys.exit(main(['schema', 'export', '--format', 'openapi', '-o', 'openapi.json']))")
    done = subprocess.run([sys.executable, "-S", "-c", code, str(target)], cwd=tmp_path, env=env,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "openapi.json").read_text() == (ROOT / "schema" / "dist" / "openapi.json").read_text()
    certify = ("import sys; from harness.faces.cli import main; "
               "sys.exit(main(['run', '--only', 'health', '--only', 'crypto', '--skip', 'crypto.groth16-proof', "
               "'--report-dir', 'out']))")
    done = subprocess.run([sys.executable, "-S", "-c", certify], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert (tmp_path / "out" / "report.json").exists()
