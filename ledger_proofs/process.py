"""Run the light prover as a child process on loopback, wait until it answers, and always end it.

`prover-<os>-<arch> start --inclusion --non-inclusion` (0.18.0) loads all 15 v1 circuits (inclusion,
non-inclusion and combined; its start cost is in benchmarks/README.md); 0.27.0's `start --run-mode
local-rpc` loads its 18 keys, 9 of them v2 (`ledger_proofs.install_v2`). Either serves `POST /prove`
and `GET /health` on the port given. The child is ended when the `ProverProcess` is stopped, when the
interpreter exits, and on Linux also when the parent dies without cleaning up (PR_SET_PDEATHSIG).
"""

from __future__ import annotations

import atexit
import contextlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

from csi_conformance.groundwork import interrupts
from csi_conformance.ledger_proofs.install import Installation, ProverInstallError, find_installation
from csi_conformance.ledger_proofs.install_v2 import V2Installation, find_v2_installation

__all__ = ["ProverProcess", "ProverStartError", "running_prover", "shared_prover", "shared_running", "shared_v2_prover",
           "start_shared_prover"]


class ProverStartError(ProverInstallError):
    """The prover did not start or did not answer in time; the message carries the end of its log."""


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


_DIE_WITH_PARENT = (
    "import os, signal, sys\n"
    "try:\n"
    "    import ctypes\n"
    "    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)\n"  # PR_SET_PDEATHSIG: kept across exec
    "except Exception:\n"  # a Python without ctypes: the prover still starts, ended at exit as elsewhere
    "    pass\n"
    "if os.getppid() != int(sys.argv[1]):\n"  # the parent died before the line above
    "    sys.exit(1)\n"
    "os.execv(sys.argv[2], sys.argv[2:])\n"
)
"""A Python child that asks Linux for SIGTERM when its parent dies, then becomes the prover (same pid).

Done after exec, in a fresh interpreter, rather than in a `preexec_fn`: a `preexec_fn` runs Python in the
forked copy of this process, where a lock held at the fork (by any thread, or by the at-fork hooks an
interrupt cut short) never comes free, and `Popen` then waits forever for an exec that never comes."""


def _launch_command(command: list[str]) -> list[str]:
    """`command`, run so that on Linux the child ends with this process however this process ends."""
    if sys.platform != "linux":
        return command
    return [sys.executable, "-S", "-c", _DIE_WITH_PARENT, str(os.getpid()), *command]


@contextlib.contextmanager
def _interrupts_held() -> Iterator[None]:
    """Hold Ctrl-C and SIGTERM while the child is started, then deliver them as they came.

    An interrupt inside `Popen`, after the fork, would lose the handle of a child that runs: held, it ends
    the start only once the child is recorded, so it is stopped. Handlers run only in the main thread, so
    elsewhere there is nothing to hold.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    held: list[int] = []
    previous = {signum: signal.signal(signum, lambda signum, frame: held.append(signum))
                for signum in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, signal.SIG_DFL if handler is None else handler)
        for signum in dict.fromkeys(held):
            signal.raise_signal(signum)


class ProverProcess:
    """One light prover child process (0.18.0: v1 circuits; 0.27.0: v2 and v1); `start()` returns once it
    answers `GET /health`."""

    def __init__(self, installation: Installation | V2Installation | None, *, timeout: float = 180.0) -> None:
        """`installation` gives the binary and keys; None for a subclass whose own `command()` names them."""
        self.installation = installation
        self.timeout = timeout
        self.port: int | None = None
        self.started_in: float | None = None
        """Seconds from launch to the first healthy answer."""
        self._process: subprocess.Popen[bytes] | None = None
        self._log: Path | None = None

    @property
    def url(self) -> str:
        if self.port is None:
            raise RuntimeError("the prover is not started")
        return f"http://127.0.0.1:{self.port}"

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def command(self) -> list[str]:
        """The prover's command line but its addresses: the v1 circuits of a 0.18.0 install, every key of a
        0.27.0 one (`V2Installation`: v2 and v1)."""
        if self.installation is None:
            raise ProverStartError("no install to start a prover from")
        if isinstance(self.installation, V2Installation):
            return [str(self.installation.binary), "start", *self.installation.start_arguments]
        return [str(self.installation.binary), "start", "--inclusion", "--non-inclusion",
                "--keys-dir", str(self.installation.keys_dir) + "/"]

    def start(self) -> ProverProcess:
        if self.running:
            return self
        self.port, metrics = _free_port(), _free_port()
        handle, name = tempfile.mkstemp(prefix="csi-prover-", suffix=".log")
        self._log = Path(name)
        command = [*self.command(), "--prover-address", f"127.0.0.1:{self.port}",
                   "--metrics-address", f"127.0.0.1:{metrics}"]
        began = time.monotonic()
        with open(handle, "wb") as log, _interrupts_held():
            self._process = subprocess.Popen(_launch_command(command), stdout=log, stderr=subprocess.STDOUT,
                                             stdin=subprocess.DEVNULL)
            atexit.register(self.stop)
        self._wait_healthy(began)
        self.started_in = time.monotonic() - began
        return self

    def _wait_healthy(self, began: float) -> None:
        while time.monotonic() - began < self.timeout:
            interrupts.raise_if_interrupted()  # an interrupt whose KeyboardInterrupt was lost ends the wait
            if not self.running:
                code = self._process.returncode if self._process else None
                raise ProverStartError(f"the light prover exited with code {code} while starting:\n{self.log_tail()}")
            try:
                with urllib.request.urlopen(f"{self.url}/health", timeout=2) as answer:
                    if answer.status == 200:
                        return
            except (urllib.error.URLError, OSError):
                pass
            time.sleep(0.2)
        self.stop()
        raise ProverStartError(f"the light prover did not answer within {self.timeout:.0f} s:\n{self.log_tail()}")

    def log_tail(self, lines: int = 12) -> str:
        """The end of the prover's own log (start-up lines, errors)."""
        if self._log is None or not self._log.exists():
            return "(no log)"
        text = self._log.read_text(encoding="utf-8", errors="replace")
        return "\n".join(text.strip().splitlines()[-lines:])

    def wait(self) -> None:
        """Block until the child ends (at once when none runs)."""
        process = self._process
        if process is not None:
            process.wait()

    def stop(self) -> None:
        """End the child (SIGTERM, then SIGKILL after 5 s) and remove its log; idempotent."""
        process, self._process = self._process, None
        if process is not None and process.poll() is None:
            process.terminate()
            try:
                process.wait(5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        if self._log is not None:
            self._log.unlink(missing_ok=True)
            self._log = None
        atexit.unregister(self.stop)


@contextlib.contextmanager
def running_prover(installation: Installation | None = None) -> Iterator[ProverProcess]:
    """A started prover for the duration of a `with` block."""
    installation = installation or find_installation()
    if installation is None:
        raise ProverStartError("the light prover is not installed: run `csi prover install`")
    prover = ProverProcess(installation).start()
    try:
        yield prover
    finally:
        prover.stop()


_SHARED: _OwnedProver | None = None
_SHARED_LOCK = threading.Lock()


def shared_prover(installation: Installation | None = None) -> ProverProcess:
    """One prover for the whole process, started on first use, owned by a thread of its own (whatever thread asked
    first: a request's, a background start's) and ended at exit: every reference server of a process (a test
    session, `csi run` with its reference) shares it. Waits until it answers."""
    return _shared_v1(installation).started()


def start_shared_prover(installation: Installation | None = None) -> None:
    """Begin starting the process-wide prover (`shared_prover`) and return at once: a background start."""
    _shared_v1(installation)


def _shared_v1(installation: Installation | None) -> _OwnedProver:
    global _SHARED
    with _SHARED_LOCK:
        if _SHARED is None or _SHARED.ended.is_set():
            installation = installation or find_installation()
            if installation is None:
                raise ProverStartError("the light prover is not installed: run `csi prover install`")
            _SHARED = _OwnedProver(installation)
        return _SHARED


def shared_running() -> ProverProcess | None:
    """The process-wide prover when it is running, else None (nothing is started, nothing waited for)."""
    with _SHARED_LOCK:
        owned = _SHARED
    if owned is None or not owned.ready.is_set() or owned.error is not None or owned.ended.is_set():
        return None
    return owned.prover if owned.prover.running else None


class _OwnedProver:
    """A prover started by, and tied to, a thread of its own that lives as long as the child.

    Linux's parent-death signal (`_DIE_WITH_PARENT`) fires when the *thread* that started the child ends, not
    the process: a prover started from a short-lived thread (a background start, a server's worker thread)
    would be ended with it. The owner thread starts the child, says when it answers, then waits for its end."""

    def __init__(self, installation: Installation | V2Installation) -> None:
        self.prover = ProverProcess(installation)
        self.error: ProverStartError | None = None
        self.ready = threading.Event()
        self.ended = threading.Event()
        threading.Thread(target=self._own, name="csi-prover-owner", daemon=True).start()

    def _own(self) -> None:
        try:
            self.prover.start()
        except ProverStartError as exc:
            self.error = exc
        self.ready.set()
        if self.error is None:
            self.prover.wait()
        self.ended.set()

    def started(self) -> ProverProcess:
        self.ready.wait()
        if self.error is not None:
            raise self.error
        return self.prover


_SHARED_V2: _OwnedProver | None = None
_SHARED_V2_LOCK = threading.Lock()


def shared_v2_prover(*, wait: bool = True) -> ProverProcess | None:
    """The process-wide 0.27.0 prover (v2 circuits), started on first use (its 18 keys take 20-60 s) and ended
    at exit; ProverStartError when it is not installed (`csi prover install --v2`) or does not start. With
    `wait` false the start is begun and None returned at once (a background start)."""
    global _SHARED_V2
    with _SHARED_V2_LOCK:
        if _SHARED_V2 is None or _SHARED_V2.ended.is_set():
            installation = find_v2_installation()
            if installation is None:
                raise ProverStartError("the light prover of the v2 circuits is not installed: run "
                                       "`csi prover install --v2`")
            _SHARED_V2 = _OwnedProver(installation)
        owned = _SHARED_V2
    return owned.started() if wait else None
