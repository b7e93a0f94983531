"""crypto.groth16-proof against the reference with the real light prover, over real HTTP on loopback.

The clean reference passes with at least one verified proof of each circuit family; every broken
variant (tests/harness/variants_proofs.py) fails; a `null` proof is UNVERIFIED, never a PASS;
the reference without a prover (its placeholder) fails, naming the circuit and the inputs.
Needs the prover: installed when missing, so on a machine without npm these tests fail, never skip.
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import csi_conformance.harness.checks  # noqa: F401  (registers the catalogue)
import httpx
import pytest
from csi_conformance.groundwork.base58 import b58decode, b58encode
from csi_conformance.harness.connection import Target
from csi_conformance.harness.context import RunFacts
from csi_conformance.harness.core.model import CheckResult, Status
from csi_conformance.harness.core.profile import PROFILES
from csi_conformance.harness.engine.runner import RunConfig, run
from csi_conformance.harness.report.junit import finding_text
from csi_conformance.ledger_proofs.circuits import CIRCUITS
from csi_conformance.ledger_proofs.process import ProverProcess, shared_prover
from csi_conformance.ledger_proofs.verify import verify_compressed
from csi_conformance.reference_server.options import ServerOptions
from csi_conformance.reference_server.scenario import load_scenario

from tests.ledger_proofs.support import installed_prover

from .broken import Variant, serving
from .variants_proofs import UNVERIFIED_VARIANTS, VARIANTS

pytestmark = pytest.mark.prover
CHECK = "crypto.groth16-proof"
CSI = Path(sys.executable).parent / "csi"


@pytest.fixture(scope="module")
def prover() -> ProverProcess:
    return shared_prover(installed_prover())


def _check(variant: Variant | None, options: ServerOptions) -> CheckResult:
    with contextlib.ExitStack() as stack:
        target = stack.enter_context(Target(stack.enter_context(serving(variant, options)), timeout=60))
        result = run(target, RunFacts(profile=PROFILES["spec"]), RunConfig(only=[CHECK]))
    (check,) = result.checks
    return check


def test_clean_reference_with_the_prover_passes(prover: ProverProcess) -> None:
    check = _check(None, ServerOptions(prover_url=prover.url))
    assert check.status is Status.PASS, [finding_text(f) for f in check.findings]
    assert check.examined["proofs"] == len(CIRCUITS)  # one per circuit: every family, each circuit once
    assert check.examined["proofs of the 0.18.0 setup"] == len(CIRCUITS)  # the light prover 0.18.0's keys


def test_spec_2_10_form_is_verified_too(prover: ProverProcess) -> None:
    """Roots and leaves as JSON integers and `treeInfos` (ambiguities bn-values, validity-proof-fields)."""
    check = _check(None, ServerOptions(prover_url=prover.url, proof_form="spec-2.10"))
    assert check.status is Status.PASS, [finding_text(f) for f in check.findings]
    assert check.examined["proofs"] == len(CIRCUITS)


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_broken_proof_is_caught(prover: ProverProcess, variant: Variant) -> None:
    check = _check(variant, ServerOptions(prover_url=prover.url))
    assert check.status is Status.FAIL, f"{variant.name} not caught: {check.status} {check.skip_reason}"
    assert all("does not verify" in f.title or "cannot be rebuilt" in f.title for f in check.findings)


def test_null_proof_is_unverified(prover: ProverProcess) -> None:
    (variant,) = UNVERIFIED_VARIANTS
    check = _check(variant, ServerOptions(prover_url=prover.url))
    assert check.status is Status.UNVERIFIED
    assert len(check.findings) == len(CIRCUITS)
    assert all(f.status is Status.UNVERIFIED and "null" in finding_text(f) for f in check.findings)


def test_reference_without_a_prover_fails_naming_circuit_and_inputs() -> None:
    check = _check(None, ServerOptions())  # the placeholder
    assert check.status is Status.FAIL
    names = {f.title for f in check.findings}
    assert names == {f"Groth16 proof does not verify ({c.name})" for c in CIRCUITS.values()}
    combined = next(f for f in check.findings if "combined_26_2_1" in f.title)
    assert combined.received["circuit"] == "combined_26_2_1" and "does not hold" in combined.received["verdict"]
    assert "combined_26_2_1 verifying key of either setup" in combined.expected
    assert not any(kind.startswith("proofs of the") for kind in check.examined)
    inputs = combined.received["public inputs"]
    assert list(inputs) == ["account roots", "account leaves", "address roots", "addresses"]
    assert [len(values) for values in inputs.values()] == [2, 2, 1, 1]


def test_csi_serve_prover_light_serves_proofs_that_verify(prover: ProverProcess, tmp_path: Path) -> None:
    """`csi serve --prover light` end to end: its own prover child, a real proof through HTTP."""
    port = _free_port()
    env = {**os.environ, "CSI_PROVER_DIR": str(installed_prover().folder)}
    with open(tmp_path / "stderr.txt", "wb") as err:
        process = subprocess.Popen([str(CSI), "serve", "--port", str(port), "--prover", "light"], stderr=err,
                                   stdout=subprocess.DEVNULL, env=env)
    try:
        url = f"http://127.0.0.1:{port}/"
        _wait_for(url, process, tmp_path / "stderr.txt")
        stderr = (tmp_path / "stderr.txt").read_text()
        assert "light prover 0.18.0" in stderr and "started in" in stderr
        ledger = load_scenario("default")
        live = [b58encode(a.hash) for a in ledger.accounts.values() if not a.closed][:2]
        answer = httpx.post(url, json={"jsonrpc": "2.0", "id": 1, "method": "getValidityProof",
                                       "params": {"hashes": live}}, timeout=60).json()["result"]["value"]
        inputs = [int.from_bytes(b58decode(v, length=32), "big") for v in answer["roots"] + answer["leaves"]]
        assert verify_compressed(CIRCUITS[(2, 0)], answer["compressedProof"], inputs).verified
    finally:
        process.terminate()
        process.wait(30)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_for(url: str, process: subprocess.Popen, stderr: Path) -> None:
    """Until the server answers (the prover loads first: tens of seconds)."""
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"csi serve exited: {stderr.read_text()}")
        with contextlib.suppress(httpx.HTTPError):
            httpx.post(url, json={"jsonrpc": "2.0", "id": 0, "method": "getIndexerSlot"}, timeout=2)
            return
        time.sleep(0.25)
    pytest.fail(f"csi serve did not answer: {stderr.read_text()}")
