"""Requests in flight together (`--concurrency`): the same requests and the same report whatever N is, the budget
never exceeded, a flood or a hang ending the run as one request at a time ends it, Ctrl-C with N requests out;
and `csi --help`, which loads no command.

The runs are real `csi run` processes against the reference server behind the recording proxy of
tests/harness/hostile_proxy.py, which keeps every request it forwarded.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from tests.harness import hostile_servers as hs
from tests.harness.broken import serving
from tests.harness.csi_process import HANG_GUARD, Finished, csi_run, start
from tests.harness.hostile_proxy import EVERY, proxied

NOWHERE = "noSuchMethod"
"""A method no run asks: the proxy forwards every request as it is."""


def _as_it_is(status: int, headers: dict[str, str], body: bytes) -> tuple[int, dict[str, str], bytes]:
    return status, headers, body


TIMINGS = frozenset({"started", "duration"})


def _run(url: str, tmp_path: Path, name: str, *args: str) -> Finished:
    cwd = tmp_path / name
    cwd.mkdir()
    return csi_run("--target", url, *args, cwd=cwd)


def _without_timings(report: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in report.items() if key not in TIMINGS}


def test_the_same_seed_sends_the_same_requests_and_gives_the_same_report_at_1_and_8(tmp_path: Path) -> None:
    """Protection: units named after their check and method (request ids, randomness), answers judged in the
    catalogue's order on the run's thread, and the shared memos asked in forks named after them."""
    sent, reports = {}, {}
    with serving(None) as upstream, proxied(upstream, NOWHERE, rewrite=_as_it_is) as proxy:
        for n in (1, 8):  # one proxy for both: the reports name its URL
            before = len(proxy.received)
            done = _run(proxy.url, tmp_path, f"n{n}", "--seed", "7", "--concurrency", str(n))
            assert done.code == 1, done.explain()  # the test server's placeholder proofs: findings to compare too
            sent[n] = Counter(received.body for received in proxy.received[before:])
            reports[n] = _without_timings(done.report)
    assert sum(sent[1].values()) > 1000  # the whole default run, not a handful of requests
    assert reports[1]["findings"]
    assert sent[8] == sent[1]
    assert reports[8] == reports[1]


def test_the_budget_is_never_exceeded_with_8_requests_out(tmp_path: Path) -> None:
    """Protection: the gate counts each request against `--max-requests` as it admits it, across threads."""
    with serving(None) as upstream, proxied(upstream, NOWHERE, rewrite=_as_it_is) as proxy:
        done = _run(proxy.url, tmp_path, "budget", "--max-requests", "150", "--concurrency", "8")
    assert done.code == 3, done.explain()
    assert len(proxy.received) == done.report["requests"] == 150
    assert any("--max-requests 150" in reason for reason in done.report["inconclusive"])


def _ending(done: Finished) -> tuple:
    report = done.report
    return done.code, report["stopped"], report["precondition"], done.statuses()


def test_a_429_flood_ends_at_8_as_at_1(tmp_path: Path) -> None:
    """Protection: the streak of failures counted across threads, and the gate admitting one exchange at a time
    while the target is in trouble: the run stops after the same three floods, with the same requests sent."""
    endings, hits = {}, {}
    with serving(None) as upstream:
        for n in (1, 8):
            with proxied(upstream, EVERY, hs.rate_limited("0")) as proxy:
                done = _run(proxy.url, tmp_path, f"n{n}", "--concurrency", str(n))
            endings[n], hits[n] = _ending(done), proxy.hits
    assert endings[1][0] == 3 and "429 persisted" in endings[1][1]
    assert endings[8] == endings[1]
    assert hits[8] == hits[1] == 3 * 4


def test_a_hanging_target_ends_at_8_as_at_1(tmp_path: Path) -> None:
    with serving(None) as upstream:
        endings = {}
        for n in (1, 8):
            with proxied(upstream, EVERY, hs.silent()) as proxy:
                done = _run(proxy.url, tmp_path, f"n{n}", "--concurrency", str(n), "--timeout", "0.5")
            assert proxy.outcomes() == ["client-left"] * proxy.hits
            endings[n] = _ending(done)
    assert endings[1][0] == 3 and endings[1][2]
    assert endings[8] == endings[1]


def test_ctrl_c_with_requests_out_exits_130_with_the_reports(tmp_path: Path) -> None:
    """Protection: the gate's cancel, which ends the requests other threads have out (libcurl's progress callback)
    and what waits to be admitted; the run's thread writes the reports. Discovery asks the owners' lists
    together: with that method held unanswered, several requests are out when the signal comes."""
    with serving(None) as upstream, proxied(upstream, "getCompressedAccountsByOwner", hs.silent()) as proxy:
        run = start("--target", proxy.url, "--timeout", str(2 * HANG_GUARD), "--concurrency", "8",
                    cwd=tmp_path)
        hang = time.monotonic() + HANG_GUARD
        while proxy.hits < 3:
            assert time.monotonic() < hang and run.process.poll() is None, "the owners' lists were not asked together"
            time.sleep(0.02)
        os.kill(run.process.pid, signal.SIGINT)
        done = run.finish(HANG_GUARD)
        assert set(proxy.outcomes()) == {"client-left"}
    assert done.code == 130, done.explain()
    assert {path.name for path in done.report_dir.iterdir()} == {"report.json", "junit.xml", "report.html"}
    assert done.report["interrupted"] is True


def test_csi_help_loads_no_command() -> None:
    """`csi --help`, `--version` and an unknown command import neither the catalogue, the reference nor a ledger."""
    probe = ("import sys\nfrom csi_conformance.harness.faces.cli import main\n"
             "try:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
             "print('\\n'.join(sys.modules), file=sys.stderr)\n")
    for argv in (["--help"], ["--version"], ["no-such-command"]):
        done = subprocess.run([sys.executable, "-c", probe, *argv], capture_output=True, text=True, check=False)
        modules = set(done.stderr.split("\n"))
        assert "csi_conformance.harness.faces.cli" in modules, done.stderr[-500:]
        rooms = [m.removeprefix("csi_conformance.") for m in modules if m.startswith("csi_conformance.")]
        loaded = sorted(m for m in rooms if m == "harness.checks" or m.split(".")[0] in
                        ("reference_server", "ledger_crypto", "ledger_ingest", "ledger_proofs", "ledger_chain"))
        assert loaded == [], (argv, loaded)
    help_text = subprocess.run([sys.executable, "-c", probe, "--help"], capture_output=True, text=True).stdout
    assert "certify an endpoint against the spec" in help_text and "serve" in help_text


def test_concurrency_is_a_run_option(tmp_path: Path) -> None:
    from csi_conformance.harness.core.errors import UsageError
    from csi_conformance.harness.engine.options import RunOptions

    assert RunOptions.from_inputs({}, env={}, cwd=tmp_path).concurrency == 8
    assert RunOptions.from_inputs({"concurrency": "2"}, env={}, cwd=tmp_path).concurrency == 2
    (tmp_path / "csi.toml").write_text("[run]\nconcurrency = 3\n")
    assert RunOptions.from_inputs({}, env={}, cwd=tmp_path).concurrency == 3
    try:
        RunOptions.from_inputs({"concurrency": "0"}, env={}, cwd=tmp_path)
    except UsageError as error:
        assert "--concurrency" in str(error)
    else:
        raise AssertionError("--concurrency 0 was accepted")
