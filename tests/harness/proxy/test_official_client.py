"""stateless.js, as an app uses it, driven through `csi proxy` in front of the reference, one proxy per client:
0.20.9 and 0.23.3 in its V1 mode against the spec's contract (`--api 0.50.0`), and 0.23.3 as published (its
default API, V2) against the contract of the Photon it follows (`--api photon-366a15b`). Every answer the client
got is byte for byte what the reference answers the same request directly, and the traffic gives no finding;
the recording judged out of the path (`csi judge --traffic`) gives the same (none); no byte the proxy wrote
holds the upstream's key; and the methods each client sent are those `harness/proxy/client_methods.json` says
that release calls (the list the reports name beside a method the contract lacks)."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import httpx
import pytest
from csi_conformance.groundwork.jsonio import dumps, loads
from csi_conformance.harness.proxy.callers import RELEASES
from csi_conformance.reference_server.scenario import open_scenario

from tests.client.support import HERE, install, today_inputs, tool
from tests.client.test_official_client import _drive, _inputs
from tests.harness.broken import serving
from tests.harness.csi_process import HANG_GUARD
from tests.harness.proxy.support import CSI, KEY, csi_proxy, found, recorded, report

RUNS = {"stateless.js 0.20.9": "0.50.0", "stateless.js 0.23.3 (V1)": "0.50.0",
        "stateless.js 0.23.3 (V2, its default)": "photon-366a15b"}
"""Each client release as the proxy's data names it, and the contract it is driven against."""


def _drive_today(url: str) -> list[dict[str, Any]]:
    install()
    done = subprocess.run([tool("node"), str(HERE / "drive_today.mjs")], input=dumps({"url": url,
                          "inputs": today_inputs()}), cwd=HERE, capture_output=True, text=True,
                          timeout=5 * HANG_GUARD)
    assert done.returncode == 0, done.stderr[-4000:]
    return [{"method": "", **loads(line)} for line in done.stdout.splitlines() if line.strip()]


def _drive_run(run: str, url: str) -> list[dict[str, Any]]:
    if run.endswith("(V2, its default)"):
        return _drive_today(url)
    release = run.split()[1]
    return _drive(url, _inputs(open_scenario("default")), release, "V1" if release == "0.23.3" else None)


@pytest.fixture(scope="module", params=sorted(RUNS))
def driven(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory,
           ) -> tuple[str, Path, list[dict], list[dict]]:
    """One client's calls through its proxy, the recording, and the folder the proxy wrote its reports to."""
    run, api = request.param, RUNS[request.param]
    folder = tmp_path_factory.mktemp("official")
    with serving(None, api=api) as upstream, csi_proxy(f"{upstream}/?api-key={KEY}", "--api", api, "--record",
                                                       "traffic.ndjson", "--report-dir", "out", cwd=folder) as proxy:
        calls = _drive_run(run, proxy.url)
        lines = recorded(folder / "traffic.ndjson", at_least=sum(len(call["sent"]) for call in calls))
        with httpx.Client(trust_env=False, timeout=HANG_GUARD) as client:  # each request again, both ways
            for line in lines:
                sent = {"content": line["request"].encode(), "headers": {"content-type": "application/json"}}
                line["direct"] = client.post(f"{upstream}{line['path']}", **sent).content
                line["proxied"] = client.post(f"{proxy.url}{line['path']}", **sent).content
        assert proxy.stop() == 0, proxy.stderr.read_text()
    return run, folder, calls, lines


def test_every_answer_byte_identical_and_no_finding(driven: tuple[str, Path, list[dict], list[dict]]) -> None:
    run, folder, calls, lines = driven
    assert calls and all(call["ok"] for call in calls if call["method"] is not None), \
        [call for call in calls if not call["ok"]][:3]
    assert len(lines) >= len(calls)
    differing = [line["request"] for line in lines
                 if not line["response"].encode() == line["direct"] == line["proxied"]]
    assert not differing
    written = report(folder / "out")
    assert written["findings"] == [], (run, written["findings"][:3])
    assert written["summary"]["checks"]["PASS"] > 0


def test_recording_judged_alike_and_key_never_written(driven: tuple[str, Path, list[dict], list[dict]]) -> None:
    run, folder, _, _ = driven
    done = subprocess.run([str(CSI), "judge", "--traffic", "traffic.ndjson", "--api", RUNS[run], "--report-dir",
                           "judged"], cwd=folder, capture_output=True, timeout=HANG_GUARD)
    assert done.returncode == 0, done.stderr
    assert found(report(folder / "judged")) == found(report(folder / "out")) == set()
    every = b"".join(path.read_bytes() for path in folder.rglob("*") if path.is_file())
    assert every and KEY.encode() not in every


def test_the_methods_each_release_sends_are_its_data(driven: tuple[str, Path, list[dict], list[dict]]) -> None:
    """What the client sent (recorded by record_requests.mjs) is, method for method, what the data says."""
    run, _, calls, _ = driven
    sent = sorted({request["method"] for call in calls for request in call["sent"]})
    assert sent == RELEASES[run], f"{run} sends {dumps(sent)}: harness/proxy/client_methods.json needs updating"


def test_the_report_names_the_releases_calling_what_the_contract_lacks(
        driven: tuple[str, Path, list[dict], list[dict]]) -> None:
    run, folder, _, _ = driven
    lacking = loads((folder / "out" / "traffic.json").read_bytes())["not_in_contract"]
    assert bool(lacking) == (RUNS[run] == "0.50.0")  # Photon's contract holds every method 0.23.3 V2 sends
    assert all(run in item["clients"] and item["calls"] > 0 for item in lacking.values()), lacking
    notes = report(folder / "out")["notes"]
    assert not lacking or any("methods called that the contract lacks" in note and run in note
                              for note in notes), notes
