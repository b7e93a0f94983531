"""stateless.js 0.23.3, as an app uses it, driven through `csi proxy` in front of the reference: every answer the
client got is byte for byte what the reference answers the same request directly, and the traffic gives no
finding; the recording judged out of the path (`csi judge --traffic`) gives the same (none), and no byte the
proxy wrote holds the upstream's key."""

from __future__ import annotations

import subprocess
from pathlib import Path

import httpx
import pytest
from csi_conformance.reference_server.scenario import open_scenario

from tests.client.test_official_client import _drive, _inputs
from tests.harness.broken import serving
from tests.harness.csi_process import HANG_GUARD
from tests.harness.proxy.support import CSI, KEY, csi_proxy, found, recorded, report


@pytest.fixture(scope="module")
def driven(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict], list[dict]]:
    """The client's calls through the proxy, the recording, and the folder the proxy wrote its reports to."""
    folder = tmp_path_factory.mktemp("official")
    with serving(None) as upstream, csi_proxy(f"{upstream}/?api-key={KEY}", "--record", "traffic.ndjson",
                                              "--report-dir", "out", cwd=folder) as proxy:
        calls = _drive(proxy.url, _inputs(open_scenario("default")), "0.23.3", "V1")
        lines = recorded(folder / "traffic.ndjson")
        with httpx.Client(trust_env=False, timeout=HANG_GUARD) as client:  # each request again, both ways
            for line in lines:
                sent = {"content": line["request"].encode(), "headers": {"content-type": "application/json"}}
                line["direct"] = client.post(f"{upstream}{line['path']}", **sent).content
                line["proxied"] = client.post(f"{proxy.url}{line['path']}", **sent).content
        assert proxy.stop() == 0, proxy.stderr.read_text()
    return folder, calls, lines


def test_every_answer_byte_identical_and_no_finding(driven: tuple[Path, list[dict], list[dict]]) -> None:
    folder, calls, lines = driven
    assert calls and all(call["ok"] for call in calls if call["method"] is not None), \
        [call for call in calls if not call["ok"]][:3]
    assert len(lines) >= len(calls)
    differing = [line["request"] for line in lines
                 if not line["response"].encode() == line["direct"] == line["proxied"]]
    assert not differing
    written = report(folder / "out")
    assert written["findings"] == []
    assert written["summary"]["checks"]["PASS"] > 0


def test_recording_judged_alike_and_key_never_written(driven: tuple[Path, list[dict], list[dict]]) -> None:
    folder, _, _ = driven
    done = subprocess.run([str(CSI), "judge", "--traffic", "traffic.ndjson", "--report-dir", "judged"], cwd=folder,
                          capture_output=True, timeout=HANG_GUARD)
    assert done.returncode == 0, done.stderr
    assert found(report(folder / "judged")) == found(report(folder / "out")) == set()
    every = b"".join(path.read_bytes() for path in folder.rglob("*") if path.is_file())
    assert every and KEY.encode() not in every
