"""Ctrl-C during `csi run`: exit 130, a partial summary, and whole reports that say `interrupted`.

SIGINT is sent to a real `csi run` subprocess in two places: while a request hangs inside the
HTTP client in the middle of a check (deterministic: the proxy holds one method unanswered and
the signal goes when that request arrives), and at an arbitrary point of a run over a slowed
reference server.

No test bounds how soon the run stops (CI is a busy 2-core machine): a run that ignores the
signal is caught by what it writes (no exit 130, no `interrupted` report, a run that went on)
or, failing that, by the hang guard. How long a stop takes is not a test's business.
"""

from __future__ import annotations

import itertools
import json
import os
import signal
import threading
import time
import weakref
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from csi_conformance.harness.core.events import Event, PhaseStarted
from csi_conformance.harness.engine.session import certify

from tests.harness import hostile_servers as hs
from tests.harness.broken import Variant, serving
from tests.harness.csi_process import HANG_GUARD, Finished, Started, start
from tests.harness.hostile_proxy import proxied


def interrupt(run: Started, signum: int = signal.SIGINT) -> Finished:
    """Signal the run, then wait for it to end (failing only at the hang guard)."""
    os.kill(run.process.pid, signum)
    return run.finish(HANG_GUARD)


def assert_interrupted_cleanly(done: Finished) -> dict[str, Any]:
    """Exit 130, the summary on stdout, three whole reports marked interrupted, no temporary file left."""
    assert done.code == 130, done.explain()
    assert "Checks per family and status" in done.stdout and "the run was interrupted" in done.stdout, done.explain()
    names = {path.name for path in done.report_dir.iterdir()}
    assert names == {"report.json", "junit.xml", "report.html"}, names  # write_atomic's .tmp files are gone
    report = json.loads((done.report_dir / "report.json").read_text(encoding="utf-8"))
    assert report["interrupted"] is True and report["gate"]["passed"] is False  # a CI script reading it stays red
    suites = ET.parse(done.report_dir / "junit.xml").getroot()
    assert any(prop.get("name") == "interrupted" and prop.get("value") == "true" for prop in suites.iter("property"))
    assert (done.report_dir / "report.html").read_text(encoding="utf-8").rstrip().endswith("</html>")
    return report


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_signal_while_a_request_hangs_mid_check(tmp_path: Path, signum: int) -> None:
    """Protection: the runner's `except KeyboardInterrupt` (harness/engine/runner.py) around the whole
    run, with `_guarded` re-raising it and `Target` never swallowing it (it catches `Exception` only);
    SIGTERM, what a CI timeout sends, is turned into the same interrupt (harness.faces.run).
    Ctrl-C inside the HTTP client still gives the summary, the reports and exit 130, and the check that
    was cut short is SKIP, not PASS (CheckResult.incomplete)."""
    with serving(None) as upstream, proxied(upstream, "getIndexerHealth", hs.silent()) as proxy:
        # a deadline past the hang guard: a client that waits it out before the signal acts fails the test
        # one request at a time: exactly one request hangs, one check is cut short (test_concurrency has N out)
        run = start("--target", proxy.url, "--timeout", str(2 * HANG_GUARD), "--concurrency", "1", cwd=tmp_path)
        hang = time.monotonic() + HANG_GUARD
        while proxy.hits == 0:
            assert time.monotonic() < hang and run.process.poll() is None, "the run never asked getIndexerHealth"
            time.sleep(0.02)
        done = interrupt(run, signum)
        assert proxy.outcomes() == ["client-left"], "the run went on asking after the signal"
    report = assert_interrupted_cleanly(done)
    cut_short = [c for c in report["checks"] if "interrupted before it finished" in (c.get("skip_reason") or "")]
    assert len(cut_short) == 1 and cut_short[0]["status"] == "SKIP", [c["id"] for c in cut_short]
    ran = [check for check in report["checks"] if check["status"] == "PASS"]
    assert len(ran) >= 5, "checks before the hanging request are kept"
    assert any(check["status"] == "SKIP" for check in report["checks"])


def test_sigint_at_an_arbitrary_point_of_a_slowed_run(tmp_path: Path) -> None:
    """Protection: the same `except KeyboardInterrupt`, wherever in the run the signal lands (in
    discovery, between checks, in a request). The reports are written after the run, each through
    `write_atomic`; a Ctrl-C in the middle of that write is tested in tests/harness/report/test_write.py."""
    count = itertools.count(1)
    reached = threading.Event()

    def slowed(real, method: str, params: Any) -> Any:
        if next(count) >= 150:
            reached.set()
        time.sleep(0.01)
        return real(method, params)

    with serving(Variant("slowed", "-", "-", dispatch=slowed)) as url:
        run = start("--target", url, cwd=tmp_path)
        assert reached.wait(HANG_GUARD), "the run did not get going"
        done = interrupt(run)
    report = assert_interrupted_cleanly(done)
    assert 150 <= report["requests"] < 1000


@pytest.mark.usefixtures("python_default_signals")
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")  # the drop this test makes
def test_ctrl_c_python_dropped_while_the_reference_starts_still_ends_the_run(tmp_path: Path) -> None:
    """A Ctrl-C that lands in a weakref callback (Python prints what it raises there and drops it) as the
    bundled reference starts: the run does not go on as if nothing happened; it ends interrupted, no check run."""
    def on_event(event: Event) -> None:
        if isinstance(event, PhaseStarted) and "bundled reference" in event.name:
            thing = type("Thing", (), {})()
            watch = weakref.ref(thing, lambda ref: (os.kill(os.getpid(), signal.SIGINT), time.sleep(30)))
            del thing  # the callback runs: the handler raises inside it, and the KeyboardInterrupt goes no further
            assert watch() is None

    result = certify({"report-dir": str(tmp_path / "out")}, on_event=on_event)
    assert result.interrupted and result.exit_code() == 130, result
    assert not result.checks and result.requests == 0
