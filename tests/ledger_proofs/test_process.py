"""The prover child process: started, waited for, ended; and the real prover as an oracle of the trees."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest
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


INTERRUPTED_AT_FORK = """
import logging, os, signal, sys, threading
from pathlib import Path
from csi_conformance.ledger_proofs.install import Installation
from csi_conformance.ledger_proofs.process import ProverProcess
interrupts = iter([signal.SIGINT])  # one Ctrl-C, as the fork returns in the parent
os.register_at_fork(after_in_parent=lambda: os.kill(os.getpid(), next(interrupts, 0)))
try:
    ProverProcess(Installation(Path(sys.argv[1]))).start()
    print("not interrupted")
except KeyboardInterrupt:
    print("interrupted")
logged = threading.Thread(target=logging.getLogger("csi").warning, args=("logging still works",), daemon=True)
logged.start()
logged.join(20)
print("logging", "works" if not logged.is_alive() else "is stuck")
"""


def test_an_interrupt_as_the_prover_is_forked_is_not_lost(tmp_path: Path) -> None:
    """A Ctrl-C that lands in Python's at-fork hooks would be dropped there (and leave logging's lock held):
    it is held until the child is started, then raised as it came."""
    _fake(tmp_path, "serve")
    done = subprocess.run([sys.executable, "-c", INTERRUPTED_AT_FORK, str(tmp_path)], capture_output=True,
                          text=True, timeout=120, cwd=Path(__file__).parents[2])
    assert done.stdout.split("\n")[:2] == ["interrupted", "logging works"], done.stdout + done.stderr
    assert "Exception ignored" not in done.stderr, done.stderr


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
