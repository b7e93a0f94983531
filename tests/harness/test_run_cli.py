"""`csi run` end to end through the installed command: exit codes, reports, bounded hostile runs, no key leaks."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.parse
from pathlib import Path

import pytest

from reference_server.options import ServerOptions

from .broken import VARIANTS, Variant, serving

CSI = Path(sys.executable).with_name("csi")
KEY = "k3y+Secret/value=ab&c-CSI"


def _csi(*args: str, cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([str(CSI), *args], cwd=cwd, capture_output=True, text=True, timeout=timeout)


def test_run_without_target_certifies_the_bundled_reference(tmp_path: Path) -> None:
    done = _csi("run", "--report-dir", "out", cwd=tmp_path)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "Gate (FAIL): passed" in done.stdout
    report = json.loads((tmp_path / "out" / "report.json").read_text())
    assert report["gate"]["passed"] and report["requests"] >= 300
    assert {p.name for p in (tmp_path / "out").iterdir()} == {"report.json", "junit.xml", "report.html"}


def test_findings_exit_1(tmp_path: Path) -> None:
    variant = next(v for v in VARIANTS if v.name == "balance-off-by-one")
    with serving(variant) as url:
        done = _csi("run", "--target", url, "--only", "consistency", "--report-dir", "out", cwd=tmp_path)
    assert done.returncode == 1
    assert "consistency.balance-by-owner" in done.stdout


def test_unreachable_target_exits_3_quickly(tmp_path: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    started = time.monotonic()
    done = _csi("run", "--target", f"http://127.0.0.1:{port}", "--timeout", "2", cwd=tmp_path)
    assert done.returncode == 3 and "unreachable" in done.stderr.lower()
    assert time.monotonic() - started < 20


@pytest.mark.parametrize("args", [["--only", "no-such-family"], ["--rate", "fast"], ["--profile", "loose"],
                                  ["--keys", "missing.yaml"]])
def test_usage_errors_exit_2(tmp_path: Path, args: list[str]) -> None:
    assert _csi("run", "--target", "http://127.0.0.1:9", *args, cwd=tmp_path).returncode == 2


def test_api_key_never_appears_in_any_output(tmp_path: Path) -> None:
    with serving(None, ServerOptions(api_key=KEY)) as url:
        done = _csi("run", "--target", url, "--api-key", KEY, "--report-dir", "out", cwd=tmp_path)
    assert done.returncode == 0, done.stdout[-2000:]
    forms = {KEY, urllib.parse.quote(KEY, safe=""), urllib.parse.quote_plus(KEY), urllib.parse.quote(KEY)}
    written = [done.stdout, done.stderr] + [p.read_text(errors="replace") for p in (tmp_path / "out").iterdir()]
    for text in written:
        for form in forms:
            assert form not in text
    report = json.loads((tmp_path / "out" / "report.json").read_text())
    observed = {o["ambiguity"]: o["readings"] for o in report["observations"]}
    assert observed["api-key-missing"] == ["refused"]
    assert any("${CSI_API_KEY}" in (f["curl"] or "") for f in report["findings"]) or report["findings"] == []


def _slow_proofs(real, method, params):
    if method == "getValidityProof":
        time.sleep(3)
    return real(method, params)


def test_hanging_method_ends_as_findings_in_bounded_time(tmp_path: Path) -> None:
    started = time.monotonic()
    with serving(Variant("slow-proofs", "crypto", "transport.answered", dispatch=_slow_proofs)) as url:
        done = _csi("run", "--target", url, "--timeout", "0.5", "--only", "crypto", "--only", "transport",
                    "--report-dir", "out", cwd=tmp_path)
    assert time.monotonic() - started < 90
    report = json.loads((tmp_path / "out" / "report.json").read_text())
    titles = {(f["check_id"], f["title"]) for f in report["findings"]}
    assert ("transport.answered", "No answer") in titles
    assert done.returncode in (1, 3)


def _flood(path: str, status: int, headers: dict, body: bytes) -> tuple[int, dict, bytes]:
    return 429, {**headers, "retry-after": "0", "content-type": "application/json"}, b'{"error":"slow down"}'


def test_flooding_target_is_inconclusive_in_bounded_time(tmp_path: Path) -> None:
    started = time.monotonic()
    with serving(Variant("flood", "transport", "transport.answered", http=_flood)) as url:
        done = _csi("run", "--target", url, "--report-dir", "out", cwd=tmp_path)
    assert time.monotonic() - started < 60
    assert done.returncode == 3 and "inconclusive" in done.stderr
    report = json.loads((tmp_path / "out" / "report.json").read_text())
    assert report["stopped"] and any(f["title"] == "Rate limited without end" for f in report["findings"])
