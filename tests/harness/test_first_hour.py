"""A new user's first hour: what the kit says around its verdict is true, and the reports are always there.

Each test is one thing a new user does: `csi run` with no prover installed, `--fail-on skip` on a clean
target, a value that cannot work, a ledger endpoint that does not answer, Ctrl-C while the bundled
reference starts, `csi run &` from a script, keys that are not base58, a folder that cannot be written.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from csi_conformance.groundwork import jsonio

from .csi_process import HANG_GUARD, csi_run, start

CSI = Path(sys.executable).with_name("csi")
NO_PROVER = {"CSI_PROVER": "", "CSI_PROVER_DIR": "/nonexistent/csi-prover"}


def _report(folder: Path) -> dict:
    return jsonio.loads((folder / "report.json").read_bytes())


def test_the_bundled_reference_without_a_prover_is_conformant_and_says_how_to_verify_proofs(tmp_path: Path) -> None:
    done = csi_run("--only", "crypto", cwd=tmp_path, env=NO_PROVER)
    assert done.code == 0, done.explain()
    assert "Verdict: CONFORMANT (exit 0)" in done.stdout
    groth16 = next(c for c in done.report["checks"] if c["id"] == "crypto.groth16-proof")
    assert groth16["status"] == "UNVERIFIED"
    assert "csi prover install" in done.stdout and "csi prover install" in done.stderr


def test_fail_on_skip_passes_a_clean_target_and_names_what_examined_nothing(tmp_path: Path) -> None:
    clean = csi_run("--fail-on", "skip", "--skip", "crypto.groth16-proof", cwd=tmp_path, env=NO_PROVER)
    assert clean.code == 0, clean.explain()
    assert clean.statuses()["SKIP"] == 0 and clean.statuses()["N/A"] >= 3  # the modes this run is not in
    thin = csi_run("--fail-on", "skip", "--only", "crypto.address-taken", "--only", "params", "--max-requests",
                   "40", cwd=tmp_path, env=NO_PROVER)
    assert thin.code == 3, thin.explain()
    assert "--fail-on skip: " in thin.stdout and "examined nothing: " in thin.stdout
    assert any("--fail-on skip" in reason for reason in thin.report["inconclusive"]) or \
        "--fail-on skip" in thin.stdout


@pytest.mark.parametrize(("argv", "says"), [
    (["--max-requests", "0"], "csi: --max-requests: must be a whole number of 1 or more, got '0'"),
    (["--max-requests", "-5"], "csi: --max-requests: must be a whole number of 1 or more, got '-5'"),
    (["--timeout", "0"], "csi: --timeout: must be more than 0 seconds, got '0'"),
    (["--ledger-rpc", "http://127.0.0.1:9/", "--slots", "1..2"], "csi: the chain's genesis hash from "
                                                                 "http://127.0.0.1:9/: getGenesisHash failed"),
])
def test_a_run_that_cannot_start_is_one_line_exit_2_and_still_writes_its_reports(argv: list[str], says: str,
                                                                                  tmp_path: Path) -> None:
    done = subprocess.run([str(CSI), "run", *argv, "--report-dir", "out"], cwd=tmp_path, capture_output=True,
                          text=True, timeout=HANG_GUARD, env={**os.environ, **NO_PROVER})
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.strip().splitlines()[-1].startswith(says)  # after the fetch's progress lines, if any
    report = _report(tmp_path / "out")
    assert report["gate"] == {**report["gate"], "verdict": "not run", "exit_code": 2}
    assert report["error"] and (tmp_path / "out" / "junit.xml").exists() and (tmp_path / "out" / "report.html").exists()


def test_ctrl_c_while_the_reference_starts_writes_the_reports(tmp_path: Path) -> None:
    """The bundled reference with the real prover takes seconds to start: an interrupt then still ends with
    the reports of a run that was interrupted (exit 130)."""
    run = start(cwd=tmp_path, env={"CSI_PROVER": "light", "CSI_PROOF_CACHE": str(tmp_path / "proofs"),
                                   "CSI_SHIPPED_PROOFS": "0"})  # cold: the prover starts
    deadline = time.monotonic() + HANG_GUARD
    while "starting the light prover" not in (tmp_path / "stderr.txt").read_text() and run.process.poll() is None:
        assert time.monotonic() < deadline, "the prover never started"
        time.sleep(0.05)
    run.process.send_signal(signal.SIGINT)
    done = run.finish()
    assert done.code == 130, done.explain()
    report = done.report
    assert report["interrupted"] is True and report["gate"]["exit_code"] == 130


def test_a_background_run_from_a_script_still_ends_on_sigint(tmp_path: Path) -> None:
    """A shell starts `csi run &` with SIGINT ignored; the kit takes it back, so `kill -INT` ends it (130)."""
    script = ("import socket, subprocess, sys, time\n"
              "s = socket.socket(); s.bind(('127.0.0.1', 0)); s.listen()\n"  # accepts, never answers
              "url = 'http://127.0.0.1:%d/' % s.getsockname()[1]\n"
              f"p = subprocess.Popen(['{CSI}', 'run', '--target', url, '--timeout', '120', '--report-dir', 'out'])\n"
              "time.sleep(3)\n"
              "p.send_signal(2)\n"
              "sys.exit(p.wait(timeout=100))\n")
    done = subprocess.run(["bash", "-c", f"{sys.executable} -c \"$0\" & wait $!", script], cwd=tmp_path,
                          capture_output=True, text=True, timeout=HANG_GUARD)
    assert done.returncode == 130, done.stdout[-2000:] + done.stderr[-2000:]
    assert _report(tmp_path / "out")["interrupted"] is True


def test_keys_that_are_not_base58_are_refused_naming_the_key(tmp_path: Path) -> None:
    (tmp_path / "keys.yaml").write_text("owners: [not-base58-0OIl]\nsignatures: [11111111111111111111111111111111]\n")
    done = subprocess.run([str(CSI), "run", "--keys", "keys.yaml", "--report-dir", "out"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=HANG_GUARD)
    assert done.returncode == 2 and done.stderr.strip().splitlines() == [
        'csi: keys.yaml: owners: "not-base58-0OIl" is not a base58 key of 32 bytes']


def test_a_scenario_written_where_it_cannot_be_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("not a folder")
    for argv in (["scenario", "generate", "--accounts", "3", "-o", "file/x.yaml"],
                 ["scenario", "export", "-o", "file/x.json"]):
        done = subprocess.run([str(CSI), *argv], cwd=tmp_path, capture_output=True, text=True, timeout=HANG_GUARD)
        assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
        assert len(done.stderr.strip().splitlines()) == 1 and done.stderr.startswith("csi: ")


def test_the_csi_command_leaves_no_hypothesis_folder_behind(tmp_path: Path) -> None:
    done = csi_run("--only", "params.generated-invalid", cwd=tmp_path, env=NO_PROVER)
    assert done.code == 0, done.explain()
    assert not (tmp_path / ".hypothesis").exists()
