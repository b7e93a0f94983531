"""The prover child process: started, waited for, ended; and the real prover as an oracle of the trees."""

from __future__ import annotations

import json
import sys
import urllib.request
from pathlib import Path

import pytest

from ledger_proofs.install import Installation, binary_name
from ledger_proofs.process import ProverProcess, ProverStartError
from reference_server.methods.proofs import _account_input
from reference_server.prover import HttpProver, ProverError
from reference_server.scenario import load_scenario

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
