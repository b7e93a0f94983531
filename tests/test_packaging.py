"""The kit works as an installed wheel, outside the checkout: the contract ships inside it."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
ROOMS = ("groundwork", "schema", "harness", "reference_server", "cases", "ledger_crypto", "ledger_ingest",
         "ledger_proofs", "ledger_chain")
OTHERS = ("schema", "harness", "cases")
"""PyPI packages whose import names are folder names of this repository."""


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
                     "reference_server/scenarios/default.yaml", "reference_server/scenarios/empty.yaml",
                     "reference_server/scenarios/default-proofs.json",
                     "schema/spec/indexer-api-0.50.0.md",
                     "reference_server/scenario.schema.yaml", "harness/report/report.schema.json",
                     "harness/fuzz/schemathesis.toml"):
        assert f"csi_conformance/{required}" in names, required
    assert not any(name.startswith(("tests/", "csi_conformance/tests/")) for name in names)


def test_the_wheel_installs_one_name(wheel: Path) -> None:
    """Nothing but `csi_conformance` and its metadata: no name another package may own."""
    names = zipfile.ZipFile(wheel).namelist()
    assert {name.split("/")[0] for name in names} == {"csi_conformance", wheel.name.split("-py3")[0] + ".dist-info"}
    for room in ROOMS:
        assert f"csi_conformance/{room}/__init__.py" in names, room
    assert any(name.startswith("csi_conformance/cases/getCompressedAccount/") for name in names)  # golden data


def test_csi_runs_beside_pypi_schema_harness_and_cases(wheel: Path, tmp_path: Path) -> None:
    """PyPI's `schema`, `harness` and `cases` installed beside the kit: both stay what they are."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    done = subprocess.run([str(python), "-m", "pip", "install", "--quiet", str(wheel), *OTHERS], capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr[-3000:]
    probe = "import importlib.util as u, sys; print('\\n'.join(u.find_spec(n).origin for n in sys.argv[1:]))"
    origins = subprocess.run([str(python), "-c", probe, *OTHERS], check=True, capture_output=True,
                             text=True).stdout.split()
    assert len(origins) == len(OTHERS) and not any("csi_conformance" in origin for origin in origins), origins
    (tmp_path / "no-prover").mkdir()
    done = subprocess.run([str(venv / "bin" / "csi"), "run"], cwd=tmp_path, capture_output=True, text=True,
                          env={**os.environ, "CSI_PROVER_DIR": str(tmp_path / "no-prover")})
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "Verdict: CONFORMANT" in done.stdout


def test_installed_wheel_exports_outside_the_checkout(wheel: Path, tmp_path: Path) -> None:
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(target),
                    str(wheel)], check=True)
    # -S keeps the checkout's editable install out of sys.path; dependencies come from this venv.
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(target), sysconfig.get_paths()["purelib"],
                                                         sysconfig.get_paths()["platlib"]])}
    code = ("import sys; from csi_conformance import schema; from csi_conformance.harness.faces.cli import main; "
            "assert schema.__file__.startswith(sys.argv[1]), schema.__file__; "
            "sys.exit(main(['schema', 'export', '--format', 'openapi', '-o', 'openapi.json']))")
    done = subprocess.run([sys.executable, "-S", "-c", code, str(target)], cwd=tmp_path, env=env,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "openapi.json").read_text() == (ROOT / "schema" / "dist" / "openapi.json").read_text()
    certify = ("import sys; from csi_conformance.harness.faces.cli import main; "
               "sys.exit(main(['run', '--only', 'health', '--only', 'crypto', '--skip', 'crypto.groth16-proof', "
               "'--report-dir', 'out']))")
    done = subprocess.run([sys.executable, "-S", "-c", certify], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert (tmp_path / "out" / "report.json").exists()


# ---------------------------------------------------------------------------------------------------------- In CI


def ci_recipe() -> tuple[str | None, str]:
    """The folder the CI recipe of docs/how-to/certify.md checks the kit out into (None without a checkout step),
    and its install step, as written."""
    page = (ROOT / "docs" / "how-to" / "certify.md").read_text(encoding="utf-8")
    section = page[page.index("## In CI, by hand"):]
    steps = yaml.safe_load(re.search(r"```yaml\n(.*?)```", section, re.S).group(1))["jobs"]["certify"]["steps"]
    checkouts = [step["with"]["path"] for step in steps if str(step.get("uses", "")).startswith("actions/checkout@")]
    (install,) = [step["run"] for step in steps if "pip install" in step.get("run", "")]
    return (checkouts[0] if checkouts else None), install


def copy_checkout(into: Path) -> None:
    """The files a checkout of this repository holds, as they are now: tracked ones and new ones not ignored."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            capture_output=True, check=True).stdout.decode().split("\0")
    for name in filter(None, listed):
        source = ROOT / name
        if source.is_file():  # a tracked file deleted in the work tree is not in a checkout of it
            (into / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, into / name)


@pytest.fixture(scope="module")
def ci_job(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A CI job's folder after the CI recipe's steps up to the install: the kit checked out into the recipe's
    folder, and the install step run as written by bash with a fresh venv's `pip` first on PATH (what
    actions/setup-python gives). Dependencies come from the package index, through pip's own cache."""
    job = tmp_path_factory.mktemp("ci-job")
    folder, install = ci_recipe()
    if folder is not None:
        copy_checkout(job / folder)
    subprocess.run([sys.executable, "-m", "venv", str(job / "venv")], check=True)
    done = subprocess.run(["bash", "-euo", "pipefail", "-c", install], cwd=job, capture_output=True, text=True,
                          env={**os.environ, "PATH": f"{job / 'venv' / 'bin'}{os.pathsep}{os.environ['PATH']}",
                               "VIRTUAL_ENV": str(job / "venv")})
    assert done.returncode == 0, f"{install}\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"
    return job


def test_the_ci_recipe_installs_a_working_csi(ci_job: Path) -> None:
    """The CI recipe's install step gives a `csi` that certifies (here the bundled reference) and writes the reports."""
    csi = ci_job / "venv" / "bin" / "csi"
    assert csi.is_file()
    work = ci_job / "run"
    work.mkdir()
    done = subprocess.run([str(csi), "run", "--only", "health", "--report-dir", "r"], cwd=work, capture_output=True,
                          text=True, env={**os.environ, "CSI_PROVER": "none"})
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert {p.name for p in (work / "r").iterdir()} >= {"report.json", "junit.xml", "report.html"}
    where = "import csi_conformance.schema as s; print(s.__file__)"
    shown = subprocess.run([str(ci_job / "venv" / "bin" / "python"), "-c", where],
                           cwd=work, capture_output=True, text=True, check=True).stdout
    assert shown.startswith(str(ci_job / "venv")), shown  # the installed kit, not this checkout


def test_a_checkout_without_shared_beside_it_passes_the_fixture_check(ci_job: Path) -> None:
    """A new user's clone has no `../shared`: the fixtures' check reads the committed sums there."""
    folder, _ = ci_recipe()
    assert folder is not None, "the CI recipe (docs/how-to/certify.md) checks the kit out no more"
    checkout = ci_job / folder
    assert not (checkout.parent / "shared").exists()
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider",
                           "tests/ledger_ingest/test_photon_replay.py"], cwd=checkout, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert re.search(r"\b\d+ passed\b", done.stdout) and " failed" not in done.stdout
    assert f"rootdir: {checkout}" in done.stdout
