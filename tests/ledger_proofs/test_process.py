"""The prover child process: started, waited for, ended; and the real prover as an oracle of the trees."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
import urllib.request
import weakref
from pathlib import Path

import pytest
from csi_conformance.groundwork import interrupts
from csi_conformance.ledger_proofs.install import Installation, binary_name
from csi_conformance.ledger_proofs.process import ProverProcess, ProverStartError
from csi_conformance.reference_server.methods.proofs import _account_input
from csi_conformance.reference_server.prover import HttpProver, ProverError
from csi_conformance.reference_server.scenario import load_scenario

FAKE = '''#!{python}
import sys, http.server
port = int(sys.argv[sys.argv.index("--prover-address") + 1].rsplit(":", 1)[1])
if "{mode}" == "crash":
    print("cannot load keys", flush=True)
    sys.exit(3)
if "{mode}" == "silent":  # loads its keys forever
    import time
    time.sleep(3600)
class Health(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200 if self.path == "/health" else 404)
        self.end_headers()
    def log_message(self, *args):
        pass
http.server.HTTPServer(("127.0.0.1", port), Health).serve_forever()
'''


def _fake(tmp_path: Path, mode: str) -> Installation:
    binary = tmp_path / binary_name()
    binary.write_text(FAKE.replace("{python}", sys.executable).replace("{mode}", mode))
    binary.chmod(0o755)
    return Installation(tmp_path)


def test_started_waited_for_and_ended(tmp_path: Path) -> None:
    prover = ProverProcess(_fake(tmp_path, "serve")).start()
    assert prover.running and prover.started_in is not None
    with urllib.request.urlopen(f"{prover.url}/health", timeout=5) as answer:
        assert answer.status == 200
    process = prover._process
    prover.stop()
    assert process is not None and process.poll() is not None
    assert not prover.running
    prover.stop()  # idempotent


def test_a_prover_that_exits_while_starting_is_reported_with_its_log(tmp_path: Path) -> None:
    with pytest.raises(ProverStartError, match=r"(?s)exited with code 3.*cannot load keys"):
        ProverProcess(_fake(tmp_path, "crash")).start()


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")  # the drop this test makes
def test_an_interrupt_python_dropped_still_ends_the_wait_for_the_prover(tmp_path: Path) -> None:
    """The prover takes seconds to a minute to start: a Ctrl-C whose KeyboardInterrupt was dropped (here in a
    weakref callback) ends the wait at its next turn instead of after the whole start (or the timeout)."""
    prover = ProverProcess(_fake(tmp_path, "silent"), timeout=120)
    try:
        with interrupts.remembered():
            thing = type("Thing", (), {})()
            watch = weakref.ref(thing, lambda ref: interrupts.heard(signal.SIGINT, None))
            del thing  # the callback's KeyboardInterrupt goes no further
            assert watch() is None
            with pytest.raises(KeyboardInterrupt):
                prover.start()
    finally:
        prover.stop()


INTERRUPTED_IN_POPEN = """
import os, signal, subprocess, sys
from pathlib import Path
from csi_conformance.groundwork import interrupts
from csi_conformance.ledger_proofs.install import Installation
from csi_conformance.ledger_proofs.process import ProverProcess
launch = subprocess.Popen._execute_child
def interrupted(*args, **kwargs):  # one Ctrl-C as the child is being started
    os.kill(os.getpid(), signal.SIGINT)
    return launch(*args, **kwargs)
subprocess.Popen._execute_child = interrupted
prover = ProverProcess(Installation(Path(sys.argv[1])))
try:
    prover.start()
    print("not interrupted")
except KeyboardInterrupt:
    print("interrupted")
print("child recorded" if prover.running else "child lost")
prover.stop()
"""


def test_an_interrupt_as_the_prover_starts_ends_the_start_and_loses_no_child(tmp_path: Path) -> None:
    """A Ctrl-C inside `Popen` is held until the child is recorded, then raised as it came: the start ends
    at once, and the child is still there to be stopped."""
    _fake(tmp_path, "serve")
    done = subprocess.run([sys.executable, "-c", INTERRUPTED_IN_POPEN, str(tmp_path)], capture_output=True,
                          text=True, timeout=120, cwd=Path(__file__).parents[2])
    assert done.stdout.split("\n")[:2] == ["interrupted", "child recorded"], done.stdout + done.stderr


FORK_WATCHED = """
import os, sys
from pathlib import Path
from csi_conformance.groundwork import interrupts
from csi_conformance.ledger_proofs.install import Installation
from csi_conformance.ledger_proofs.process import ProverProcess
marker = sys.argv[2]
os.register_at_fork(after_in_child=lambda: open(marker, "w").close())
prover = ProverProcess(Installation(Path(sys.argv[1]))).start()
print("started")
prover.stop()
"""


def test_no_python_runs_in_the_forked_copy_of_the_parent(tmp_path: Path) -> None:
    """Python code between fork and exec (a `preexec_fn`) can wait forever on a lock the fork copied held,
    and `Popen` with it: the prover is started without any, so Python's at-fork hooks never run."""
    _fake(tmp_path, "serve")
    marker = tmp_path / "python-ran-in-the-fork"
    done = subprocess.run([sys.executable, "-c", FORK_WATCHED, str(tmp_path), str(marker)], capture_output=True,
                          text=True, timeout=120, cwd=Path(__file__).parents[2])
    assert done.stdout.startswith("started"), done.stdout + done.stderr
    assert not marker.exists()


ORPHANED = """
import sys
from pathlib import Path
from csi_conformance.groundwork import interrupts
from csi_conformance.ledger_proofs.install import Installation
from csi_conformance.ledger_proofs.process import ProverProcess
prover = ProverProcess(Installation(Path(sys.argv[1]))).start()
print(prover._process.pid, flush=True)
sys.stdin.read()
"""


def test_the_prover_ends_when_its_parent_is_killed(tmp_path: Path) -> None:
    """SIGKILL leaves the parent no chance to clean up: Linux ends the child (PR_SET_PDEATHSIG)."""
    _fake(tmp_path, "serve")
    parent = subprocess.Popen([sys.executable, "-c", ORPHANED, str(tmp_path)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True, cwd=Path(__file__).parents[2])
    child = int(parent.stdout.readline())
    assert Path(f"/proc/{child}").exists()
    parent.kill()
    parent.wait()
    deadline = time.monotonic() + 120  # a hang guard, not a claim about speed
    while _alive(child):
        assert time.monotonic() < deadline, f"the prover {child} outlived its killed parent"
        time.sleep(0.05)


def _alive(pid: int) -> bool:
    """Whether `pid` runs (a zombie has ended: it waits only to be reaped by init)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (FileNotFoundError, ProcessLookupError):
        return False


@pytest.mark.prover
def test_real_prover_refuses_a_wrong_root_loudly(prover: ProverProcess, capfd: pytest.CaptureFixture) -> None:
    ledger = load_scenario("default")
    account = next(a for a in ledger.accounts.values() if not a.closed)
    good = _account_input(ledger, account)
    with urllib.request.urlopen(f"{prover.url}/health", timeout=5) as answer:
        assert answer.status == 200
    wrong = type(good)(root=good.root ^ 1, path_index=good.path_index, path_elements=good.path_elements,
                       leaf=good.leaf)
    with pytest.raises(ProverError, match="HTTP"):
        HttpProver(prover.url).prove([wrong], [])
    assert "BUG of the reference: the prover refused its inputs" in capfd.readouterr().err
    proof = HttpProver(prover.url).prove([good], [])
    assert set(proof) == {"a", "b", "c"}
    assert json.dumps(proof)
