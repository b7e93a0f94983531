"""`csi judge --traffic` on a HAR file a browser recorded: a page on 127.0.0.1 makes its JSON-RPC calls with
fetch() through `csi proxy --record` in front of a broken variant, headless Chromium records them (the HAR is
built from the browser's own DevTools Network events, as its developer tools build one: Chromium cannot save a
HAR from its command line, see browser_har.py), and judging the HAR gives the findings judging the proxy's NDJSON
recording of the same exchanges gives. A broken HAR is one line of error, never a traceback."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from csi_conformance.groundwork.jsonio import dumps, loads
from csi_conformance.harness.core.model import RunResult
from csi_conformance.harness.proxy import ProxyOptions, judge_traffic, running_proxy

from tests.harness.broken import all_variants, serving
from tests.harness.csi_process import HANG_GUARD
from tests.harness.proxy.browser_har import record_har
from tests.harness.proxy.support import CSI, KEY
from tests.harness.proxy.test_variants import TRAFFIC

VARIANT = next(variant for variant in all_variants() if variant.name == "string-lamports")
BATCH = [{"jsonrpc": "2.0", "id": "batch-1", "method": "getIndexerSlot"}, TRAFFIC[1]]
"""A batch too: its calls are judged each as a call, from the HAR as from the recording."""


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding `session.har` (the browser's) and `traffic.ndjson` (the proxy's) of the same calls."""
    folder = tmp_path_factory.mktemp("har")
    bodies = [dumps(request).encode() for request in [*TRAFFIC, BATCH]]
    with serving(VARIANT) as upstream, running_proxy(ProxyOptions(upstream=f"{upstream}/?api-key={KEY}",
                                                                  record=folder / "traffic.ndjson")) as (url, session):
        har = record_har(f"{url}/", bodies, folder)
        session.drain()
    (folder / "session.har").write_text(dumps(har))
    return folder


def _found(result: RunResult) -> list[tuple]:
    return sorted((f.check_id, f.method, f.path, f.title, f.status.value) for f in result.findings)


def test_a_browsers_har_gives_the_recordings_findings(recorded: Path) -> None:
    har = judge_traffic(recorded / "session.har", ProxyOptions())
    ndjson = judge_traffic(recorded / "traffic.ndjson", ProxyOptions())
    assert _found(har) == _found(ndjson)
    assert any(check == VARIANT.check for check, *_ in _found(har)), _found(har)
    assert har.requests == ndjson.requests == len(TRAFFIC) + 1  # the page and its favicon (GETs) are left out
    assert har.notes == ndjson.notes  # the same methods, params and clauses reached


def _truncated(har: str) -> str:
    return har[: len(har) // 2]


def _url_not_a_string(har: str) -> str:
    """The first JSON-RPC call's URL a number."""
    log = loads(har)
    next(entry for entry in log["log"]["entries"] if entry["request"]["method"] == "POST")["request"]["url"] = 7
    return dumps(log)


@pytest.mark.parametrize(("name", "broken"), [("truncated.har", _truncated), ("url.har", _url_not_a_string)])
def test_a_broken_har_is_one_line_of_error(recorded: Path, name: str, broken: Callable[[str], str]) -> None:
    (recorded / name).write_text(broken((recorded / "session.har").read_text()))
    done = subprocess.run([str(CSI), "judge", "--traffic", name], cwd=recorded, capture_output=True, text=True,
                          timeout=HANG_GUARD)
    assert done.returncode == 2, done.stderr
    assert done.stdout == "" and done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith(f"csi: {name}: not a recording"), done.stderr
