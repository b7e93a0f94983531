"""A target that throttles the run is said so as it happens and in the summary, with `--rate` suggested, and
every HTTP 429 body it sent is judged against §7 (`{error: string}`), the ones retried after included."""

from __future__ import annotations

import itertools
import threading
from pathlib import Path

from csi_conformance.groundwork import jsonio

from .broken import Variant, serving
from .csi_process import csi_run

EVERY = 3
"""Every third answer is an HTTP 429 (Retry-After: 0), so the run goes on and is throttled throughout."""


def _throttling(body: bytes):
    counter, lock = itertools.count(1), threading.Lock()

    def rewrite(path: str, status: int, headers: dict, answer: bytes) -> tuple[int, dict, bytes]:
        with lock:
            n = next(counter)
        if n % EVERY:
            return status, headers, answer
        return 429, {**headers, "retry-after": "0", "content-type": "application/json"}, body

    return rewrite


def _run(body: bytes, tmp_path: Path):
    variant = Variant("throttling", "schema", "schema.error-body", http=_throttling(body))
    with serving(variant) as url:
        return csi_run("--target", url, "--only", "health", "--only", "schema", "--only", "envelope",
                       "--report-dir", "out", cwd=tmp_path)


def test_the_throttling_is_said_as_it_happens_and_in_the_summary(tmp_path: Path) -> None:
    done = _run(b'{"error": "slow down"}', tmp_path)
    report = jsonio.loads((tmp_path / "out" / "report.json").read_bytes())
    assert report["throttled"] >= 10, report["throttled"]
    assert "The target answers HTTP 429 (rate limited): 1 so far" in done.stdout
    assert "The target answers HTTP 429 (rate limited): 10 so far" in done.stdout
    assert f"Rate limited: {report['throttled']} of the {report['requests']} answers were HTTP 429" in done.stdout
    assert "To ask more slowly: --rate " in done.stdout
    body = next(c for c in report["checks"] if c["id"] == "schema.error-body")
    assert body["status"] == "PASS" and body["examined"]["answers"] >= report["throttled"] - 3


def test_a_malformed_429_body_retried_after_is_still_a_finding(tmp_path: Path) -> None:
    _run(b'{"message": "slow down"}', tmp_path)
    report = jsonio.loads((tmp_path / "out" / "report.json").read_bytes())
    findings = [f for f in report["findings"] if f["check_id"] == "schema.error-body"]
    assert [(f["title"], f["status"], f["clauses"], f["received"]) for f in findings][:1] == [
        ("Malformed HTTP 429 body", "FAIL", ["7-R2"], {"message": "slow down"})]
    assert findings[0]["occurrences"] >= 3
