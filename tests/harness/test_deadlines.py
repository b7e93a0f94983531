"""Deadlines measure the target, not the kit's own load; a wrong path or a target that goes away is no finding.

Whole `csi run`s against the reference server behind a loopback proxy (`Crowded`) that counts the requests it
has in flight: a proof request it is given while another request is in flight waits, unanswered, until it is
the only one (or until the client leaves). Such a target answers every proof asked alone and none asked in a
crowd, so what the kit does about it shows in counts, never in timings: each proof the client gave up on was
asked again alone and answered. The other tests: a proof method that never answers (still a FAIL), a URL
whose path is wrong (HTTP 404: exit 3, one line), a target stopped in the middle of a run (exit 3, no FAIL),
and plain runs of the bundled reference with both cores kept busy (exit 0).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
from csi_conformance.harness.connection.gate import Gate
from csi_conformance.harness.connection.kinds import IN_FLIGHT, kind_of

from tests.harness import hostile_servers as hs
from tests.harness.broken import serving
from tests.harness.csi_process import HANG_GUARD, Finished, csi_run, start
from tests.ledger_proofs.support import installed_prover

T = "1"
"""A short --timeout and --proof-timeout: a proof held in the crowd costs the run a second."""
FAMILIES = ("--only", "transport", "--only", "schema", "--only", "limits")
"""Families whose checks pass on the test server (placeholder proofs): the verdict is the deadlines' alone."""


class Crowded:
    """A proxy to `upstream` that answers a proof request only while it is the only request in flight
    (`always`: never); every other request is forwarded at once."""

    def __init__(self, upstream: str, *, always: bool = False) -> None:
        self.upstream = upstream
        self.always = always
        self.in_flight = 0
        self.held = 0
        """Proof requests that met another in flight: the client had to give up on them or wait."""
        self.given_up: list[str] = []
        """Methods of the held proof requests the client left before they were answered."""
        self._client: httpx.AsyncClient | None = None

    async def __call__(self, request: hs.Received, writer: asyncio.StreamWriter) -> None:
        self.in_flight += 1
        try:
            held = kind_of(request.rpc_method) == "proof" and (self.always or self.in_flight > 1)
            self.held += held
            try:
                while held and (self.always or self.in_flight > 1):  # the turn ends it when the client leaves
                    await asyncio.sleep(0.01)
                await self._forward(request, writer)
            except asyncio.CancelledError:
                self.given_up.append(str(request.rpc_method))
                raise
        finally:
            self.in_flight -= 1

    async def _forward(self, request: hs.Received, writer: asyncio.StreamWriter) -> None:
        if self._client is None:
            self._client = httpx.AsyncClient(base_url=self.upstream, timeout=HANG_GUARD, trust_env=False)
        headers = {k: v for k, v in request.headers.items() if k == "content-type"}
        answer = await self._client.request(request.method, request.target, content=request.body, headers=headers)
        writer.write(hs.response(answer.status_code, answer.content, content_type=answer.headers.get("content-type")))
        await writer.drain()


@contextlib.contextmanager
def crowded(upstream: str, *, always: bool = False) -> Iterator[tuple[Crowded, hs.Running]]:
    proxy = Crowded(upstream, always=always)
    with hs.serve(proxy) as running:
        yield proxy, running


@pytest.fixture(scope="module")
def upstream() -> Iterator[str]:
    with serving(None) as url:
        yield url


def _timeouts(done: Finished) -> list[dict]:
    return [f for f in done.findings("transport.answered") if "timeout" in str(f["received"])]


def test_proofs_slow_only_in_a_crowd_are_asked_again_alone_and_the_target_conforms(upstream: str,
                                                                                  tmp_path: Path) -> None:
    """Protection: the lone second attempt of `Target._exchange` (`Gate.alone`): a proof that timed out with
    other requests of the kit in flight is asked again with nothing else in flight before it is judged, and
    report.json names it. Without it each proof the client gave up on is a `transport.answered` FAIL."""
    with crowded(upstream) as (proxy, running):
        done = csi_run("--target", running.url, "--timeout", T, "--proof-timeout", T, *FAMILIES, cwd=tmp_path)
    asked = done.report["asked_again"]
    assert asked, "no proof request timed out in a crowd: nothing was shown"
    assert done.code == 0, done.explain()
    assert not _timeouts(done)
    # every request the proxy saw the client give up on, and only held ones (a client may leave just as the proxy
    # answers: the proxy then sees no cancellation, the client a timeout)
    assert not Counter(proxy.given_up) - Counter(a["method"] for a in asked)
    assert len(proxy.given_up) <= len(asked) <= proxy.held
    assert all(a["answered"] and a["in_flight"] >= 1 and "timeout after 1.0 s" in a["why"] for a in asked), asked
    assert all(kind_of(a["method"]) == "proof" for a in asked)
    assert f"Asked again alone: {len(asked)} request(s)" in done.stdout


def test_a_proof_that_times_out_alone_too_is_still_a_finding(upstream: str, tmp_path: Path) -> None:
    """Protection: only the lone attempt's answer is judged, so a target that does not answer a proof even alone
    is a `transport.answered` FAIL that cites §4.1's success rule (not the content type or the 429 rule), its
    deadline, the requests in flight, the second attempt, and the option to raise."""
    with crowded(upstream, always=True) as (_proxy, running):
        done = csi_run("--target", running.url, "--timeout", T, "--proof-timeout", T, *FAMILIES, cwd=tmp_path)
    assert done.code == 1, done.explain()
    found = _timeouts(done)
    assert found, done.explain()
    assert all(f["clauses"] == ["4.1-R6"] and f["status"] == "FAIL" for f in found)
    details = [f["detail"] for f in found]
    assert all(d["deadline"].startswith("1 s (--proof-timeout") and "--proof-timeout" in d["to change"]
               for d in details), details
    again = [d for d in details if "asked again" in d]
    assert again and all(d["in flight"] >= 1 and "alone too" in d["asked again"] for d in again), details
    assert done.report["asked_again"] and not any(a["answered"] for a in done.report["asked_again"])


@pytest.mark.parametrize("body, content_type", [(b'{"error":"Not Found"}', "application/json"),
                                                (b"<html><body>Not Found</body></html>", "text/html")])
def test_a_wrong_path_is_a_set_up_error(body: bytes, content_type: str, tmp_path: Path) -> None:
    """Protection: `preflight`'s HTTP 404 rule: a host that answers 404 at the path given (JSON body or not) is
    no indexer's JSON-RPC URL, exit 3 with one line, never a finding on every check."""
    with hs.serve(hs.answer(404, body, content_type=content_type)) as running:
        done = csi_run("--target", f"{running.url}/api/v1", cwd=tmp_path)
    assert done.code == 3, done.explain()
    url = f"{running.url}/api/v1/"
    assert f"Inconclusive: HTTP 404 at {url}: is {url} the indexer's JSON-RPC URL?" in done.stdout.splitlines()
    assert done.report["precondition"] and not done.report["findings"]
    assert len(running.requests) == 1


def test_a_target_stopped_mid_run_is_inconclusive_not_failed(upstream: str, tmp_path: Path) -> None:
    """Protection: `Target._halt_if_gone`: a target that answered and then refuses connections (its process
    stopped, its requests in flight cut) halts the run, inconclusive with one reason; nothing it did not answer
    is a FAIL. Without it every check asked after the stop fails with "No answer"."""
    with crowded(upstream) as (_proxy, running):
        run = start("--target", running.url, *FAMILIES, "--concurrency", "8", cwd=tmp_path)
        hang = time.monotonic() + HANG_GUARD
        while len(running.requests) < 40:
            assert time.monotonic() < hang and run.process.poll() is None, "the run ended before the stop"
            time.sleep(0.01)
    done = run.finish()
    assert done.code == 3, done.explain()
    assert "the target stopped answering" in (done.report["stopped"] or ""), done.explain()
    assert done.statuses()["FAIL"] == 0 and not done.findings("transport.answered"), done.explain()
    assert "INCONCLUSIVE (exit 3)" in done.stdout


def _until(condition: Callable[[], bool]) -> None:
    hang = time.monotonic() + HANG_GUARD
    while not condition():
        assert time.monotonic() < hang, "a hang"
        time.sleep(0.005)


def test_the_gate_bounds_proofs_in_flight_and_lowers_the_bound() -> None:
    """Protection: `Gate`'s bound per kind of method (`kinds.IN_FLIGHT`), halved by `lower`, and `Place.crowd`."""
    gate = Gate()
    gate.configure(concurrency=8, limits=IN_FLIGHT)
    assert gate.limit("proof") == IN_FLIGHT["proof"] == 2 and gate.limit("lookup") == 8
    with gate.exchange("proof") as first, gate.exchange("proof") as second:
        assert not gate._admits("proof") and gate._admits("lookup")
        with gate.exchange("lookup"):
            pass
    assert (first.crowd, second.crowd) == (2, 2)
    gate.lower("proof")
    assert gate.limit("proof") == 1
    gate.lower("proof")
    assert gate.limit("proof") == 1


def test_a_lone_attempt_waits_for_the_others_and_keeps_new_ones_out() -> None:
    """Protection: `Gate.alone`: it begins only once nothing else is in flight, and nothing begins beside it."""
    gate = Gate()
    gate.configure(concurrency=8)
    order: list[str] = []
    held, release = threading.Event(), threading.Event()

    def out() -> None:
        with gate.exchange():
            held.set()
            release.wait(HANG_GUARD)
            order.append("crowd done")

    def alone() -> None:
        with gate.alone():
            order.append("alone")

    def late() -> None:
        with gate.exchange():
            order.append("late")

    threads = [threading.Thread(target=out)]
    threads[0].start()
    held.wait(HANG_GUARD)
    threads.append(threading.Thread(target=alone))
    threads[1].start()
    _until(lambda: gate._waiting_alone == 1)
    threads.append(threading.Thread(target=late))
    threads[2].start()
    release.set()
    for thread in threads:
        thread.join(HANG_GUARD)
    assert order == ["crowd done", "alone", "late"]


BUSY = "while True: pass\n"


@contextlib.contextmanager
def busy_cores(n: int) -> Iterator[None]:
    """`n` child processes that keep a core each busy until the block ends."""
    children = [subprocess.Popen([sys.executable, "-c", BUSY]) for _ in range(n)]
    try:
        yield
    finally:
        for child in children:
            child.kill()
            child.wait()


@pytest.mark.prover
def test_the_bundled_reference_conforms_on_a_busy_machine(tmp_path: Path) -> None:
    """Protection: the deadlines of `kinds` (a proof method's longer one, a few proofs in flight at most) and
    the lone second attempt: a plain `csi run` of the bundled reference, proving with the light prover as `make
    run` does, passes whatever else keeps the machine's cores busy (before, a proof request timed out at load
    8-20 once in four runs)."""
    installed_prover()
    cold = {"CSI_PROOF_CACHE": str(tmp_path / "proofs"),  # every proof made under load, none read back
            "CSI_SHIPPED_PROOFS": "0"}
    with busy_cores(os.cpu_count() or 2):
        done = csi_run(cwd=tmp_path, env={"CSI_PROVER": "light", **cold})
    assert done.code == 0, done.explain()
    [proofs] = [c for c in done.report["checks"] if c["id"] == "crypto.groth16-proof"]
    assert proofs["status"] == "PASS", proofs  # real proofs verified, not placeholders left unverified
