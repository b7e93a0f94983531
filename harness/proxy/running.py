"""Running the proxy: built from the command's options, served by uvicorn on loopback, its reports written on
shutdown (SIGINT, SIGTERM) and every N seconds; and judging a recording out of the path (`csi judge --traffic`).

Both write what `csi run` writes into the report folder (report.json, junit.xml, report.html), and beside it
`traffic.json`: the methods, params and clauses the traffic reached, and the methods it called that the
contract lacks.
"""

from __future__ import annotations

import importlib.util
import socket
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

import uvicorn
from csi_conformance.groundwork.files import write_atomic
from csi_conformance.groundwork.jsonio import dumps
from csi_conformance.harness.context import RunFacts
from csi_conformance.harness.core.errors import UsageError
from csi_conformance.harness.core.model import Finding, RunResult, Status
from csi_conformance.harness.core.profile import profile_named
from csi_conformance.harness.engine.options import BY_NAME
from csi_conformance.harness.proxy.chain_roots import NodeHistories
from csi_conformance.harness.proxy.forward import Upstream
from csi_conformance.harness.proxy.judge import TrafficJudge
from csi_conformance.harness.proxy.recording import Recorder, read_traffic
from csi_conformance.harness.proxy.session import ProxySession, Settings
from csi_conformance.harness.report import ensure_writable, write_reports
from csi_conformance.schema import Contract

__all__ = ["ProxyOptions", "judge_traffic", "running_proxy", "serve_proxy", "write_session"]

REPLAYED = "http://recorded.invalid"
"""The upstream a recording is judged as coming from (its own is not in it: only its path)."""


@dataclass(frozen=True)
class ProxyOptions:
    """What `csi proxy` and `csi judge` are given."""

    upstream: str = REPLAYED
    host: str = "127.0.0.1"
    port: int = 0
    api: str = BY_NAME["api"].default
    profile: str = BY_NAME["profile"].default
    report_dir: Path | None = None
    report_every: float | None = None
    header: bool = False
    block: bool = False
    shadow: str | None = None
    record: Path | None = None
    proofs: bool = False
    solana_rpc: str | None = None
    """A Solana node of the chain the upstream indexes: its roots judged against the on-chain root histories."""
    timeout: float = 30.0
    fail_on: Status = Status.FAIL


def traffic_judge(options: ProxyOptions) -> TrafficJudge:
    contract = Contract.for_api(options.api)
    facts = RunFacts(contract=contract, profile=profile_named(options.profile))
    histories = NodeHistories(options.solana_rpc, timeout=options.timeout) if options.solana_rpc else None
    return TrafficJudge(facts, options.upstream, verify_proofs=options.proofs, shadowed=options.shadow is not None,
                        histories=histories)


def write_session(judge: TrafficJudge, directory: Path, *, gate: Status = Status.FAIL) -> RunResult:
    """The session's reports, as `csi run` writes them, and `traffic.json` beside them."""
    result = judge.result()
    directory = ensure_writable(directory)
    write_reports(result, directory, judge.facts.contract, gate=gate)
    write_atomic(directory / "traffic.json", (dumps(judge.reach()) + "\n").encode())
    return result


def judge_traffic(path: Path, options: ProxyOptions,
                  on_finding: Callable[[Finding], None] = lambda finding: None) -> RunResult:
    """Judge a recording (NDJSON of `--record`, or a HAR file) with the proxy's checks; reports as the proxy's."""
    judge = traffic_judge(options)
    try:
        for passage in read_traffic(path):
            for finding in judge.judge(passage):
                on_finding(finding)
        if options.report_dir is not None:
            return write_session(judge, options.report_dir, gate=options.fail_on)
        return judge.result()
    finally:
        judge.close()


@contextmanager
def running_proxy(options: ProxyOptions, on_finding: Callable[[Finding], None] = lambda finding: None,
                  ) -> Iterator[tuple[str, ProxySession]]:
    """The proxy served on a background thread; yields its URL and session. Its reports are written on exit."""
    session = _session(options, on_finding)
    sock = _bind(options.host, options.port)
    server = uvicorn.Server(_config(session, options.host, sock.getsockname()[1]))
    thread = threading.Thread(target=lambda: server.run(sockets=[sock]), name="csi-proxy", daemon=True)
    thread.start()
    try:
        while not server.started and thread.is_alive():
            threading.Event().wait(0.005)
        yield f"http://{options.host}:{sock.getsockname()[1]}", session
    finally:
        server.should_exit = True
        thread.join()
        sock.close()
        _finish(session, options)


def serve_proxy(options: ProxyOptions, on_finding: Callable[[Finding], None],
                on_listening: Callable[[str], None]) -> RunResult:
    """Serve in the foreground until SIGINT or SIGTERM; the reports are written then and every N seconds."""
    session = _session(options, on_finding)
    sock = _bind(options.host, options.port)
    stop = threading.Event()
    if options.report_every and options.report_dir is not None:
        threading.Thread(target=_every, args=(session, options, stop), name="csi-proxy-reports", daemon=True).start()
    on_listening(f"http://{options.host}:{sock.getsockname()[1]}")
    try:
        with sock:
            uvicorn.Server(_config(session, options.host, sock.getsockname()[1])).run(sockets=[sock])
    except KeyboardInterrupt:  # Ctrl-C or SIGTERM, heard again once uvicorn has stopped: the way a proxy ends
        pass
    finally:
        stop.set()
    return _finish(session, options)


def _session(options: ProxyOptions, on_finding: Callable[[Finding], None]) -> ProxySession:
    upstream = Upstream(options.upstream, timeout=options.timeout)
    shadow = Upstream(options.shadow, timeout=options.timeout) if options.shadow else None
    recorder = Recorder(options.record) if options.record is not None else None
    return ProxySession(traffic_judge(options), upstream, settings=Settings(header=options.header,
                                                                            block=options.block),
                        shadow=shadow, recorder=recorder, on_finding=on_finding)


def _finish(session: ProxySession, options: ProxyOptions) -> RunResult:
    session.close()
    try:
        if options.report_dir is not None:
            return write_session(session.judge, options.report_dir, gate=options.fail_on)
        return session.judge.result()
    finally:
        session.judge.close()


def _every(session: ProxySession, options: ProxyOptions, stop: threading.Event) -> None:
    while not stop.wait(options.report_every):
        session.drain()
        with suppress(Exception):  # a report that cannot be written now is written at the end, or says why
            write_session(session.judge, options.report_dir, gate=options.fail_on)


def _bind(host: str, port: int) -> socket.socket:
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise UsageError(f"cannot listen on {host}:{port} ({exc.strerror}): give another --port, or 0 for any "
                         "free one") from None
    return sock


def _config(session: ProxySession, host: str, port: int) -> uvicorn.Config:
    """The access log stays off: a query carries the api-key. The upstream's `date` and `server` go back as they
    came, so the proxy adds none of its own."""
    has = importlib.util.find_spec
    return uvicorn.Config(session.app(), host=host, port=port, access_log=False, log_level="warning",
                          server_header=False, date_header=False,
                          http="httptools" if has("httptools") else "auto",
                          loop="uvloop" if has("uvloop") else "auto", lifespan="off")
