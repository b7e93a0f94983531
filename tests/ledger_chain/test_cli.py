"""The commands as a user runs them: `csi chain generate` (progress, errors, nothing half written),
`csi chain serve` as a real process on loopback, and `csi serve`'s reading path over it."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from csi_conformance.groundwork.jsonio import loads
from csi_conformance.ledger_chain import ChainError, generate
from csi_conformance.ledger_chain import generation as generate_module
from csi_conformance.ledger_chain.draw_parts import Users
from csi_conformance.ledger_chain.model import Model
from csi_conformance.ledger_chain.operations import SolInvoke
from csi_conformance.ledger_chain.proofs import ChainProver
from csi_conformance.ledger_chain.replay import read_chain
from csi_conformance.ledger_chain.system import Output
from csi_conformance.ledger_proofs.install import Installation

from tests.ledger_chain.conftest import SEED

pytestmark = pytest.mark.chain
CSI = Path(sys.executable).with_name("csi")
GUARD = 300


def csi(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(CSI), *args], capture_output=True, text=True, timeout=GUARD, cwd=cwd,
                          env={**os.environ, "CSI_PROVER": "none"})


def test_generate_prints_a_line_per_step_and_writes_the_chain(tmp_path: Path, installation: Installation) -> None:
    done = csi("chain", "generate", "--ops", "6", "--seed", str(SEED), "-o", "out", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    steps = [line for line in done.stderr.splitlines() if re.match(r"\[\d+/6\] slot \d+: ", line)]
    assert len(steps) == 6
    assert "6 transactions in" in done.stderr and (tmp_path / "out" / "chain.yaml").is_file()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")], "no staging folder left"


def test_usage_errors_are_one_line_with_exit_2(tmp_path: Path) -> None:
    (tmp_path / "precious").mkdir()
    (tmp_path / "precious" / "notes.txt").write_text("mine")
    for args, message in ((("--ops", "0", "-o", "x"), "--ops must be at least 1"),
                          (("--ops", "3", "-o", "precious"), "is not a chain folder")):
        done = csi("chain", "generate", *args, cwd=tmp_path)
        assert done.returncode == 2 and message in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert (tmp_path / "precious" / "notes.txt").read_text() == "mine"
    done = csi("chain", "serve", "precious", "--port", "0", cwd=tmp_path)
    assert done.returncode == 2 and "is not a chain folder" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_refused_operation_names_itself_and_writes_nothing(tmp_path: Path, installation: Installation,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """An operation the programs refuse ends the run: its description, the program, code and meaning."""
    real = generate_module.next_step

    def with_a_bad_third(model: Model, users: Users, seen: object, *, seed: int, index: int, **drawn: object) -> tuple:
        if index == 2:
            tree = next(iter(model.state_trees))
            return SolInvoke("compress-sol", 0, outputs=(Output(users.keys[0], 10, tree),), compress=9), 1
        return real(model, users, seen, seed=seed, index=index, **drawn)

    monkeypatch.setattr(generate_module, "next_step", with_a_bad_third)
    with pytest.raises(ChainError) as refused:
        generate(5, SEED, tmp_path / "out", prover=ChainProver(), installation=installation)
    assert str(refused.value) == ("compress-sol: user 0, 0 in, 1 out, 0 new addresses, compress 9 failed in the "
                                  "light system program: Custom(6004): light system program: ComputeOutputSumFailed")
    assert any("ComputeOutputSumFailed" in line for line in refused.value.logs)
    assert list(tmp_path.iterdir()) == []


@pytest.fixture
def served(chain_dir: Path, tmp_path: Path) -> Iterator[str]:
    process = subprocess.Popen([str(CSI), "chain", "serve", str(chain_dir), "--port", "0"], stderr=subprocess.PIPE,
                               text=True, cwd=tmp_path)
    try:
        line = process.stderr.readline()
        found = re.search(r"on (http://127\.0\.0\.1:\d+/)", line)
        assert found, line
        yield found.group(1)
    finally:
        process.terminate()
        process.wait(GUARD)


def test_serve_answers_and_csi_reads_the_whole_chain_from_it(served: str, chain_dir: Path, tmp_path: Path) -> None:
    slots = read_chain(chain_dir).slots
    answer = httpx.post(served, json={"jsonrpc": "2.0", "id": 1, "method": "getSlot"}).json()
    assert answer["result"] == slots[-1]
    from_files = csi("scenario", "export", "--transactions", str(chain_dir), "-o", "files.json", cwd=tmp_path)
    from_node = csi("scenario", "export", "--ledger-rpc", served, "--slots", f"{slots[0]}..{slots[-1]}",
                    "--ledger-cache", "cache", "-o", "node.json", cwd=tmp_path)
    assert from_files.returncode == 0 and from_node.returncode == 0, from_files.stderr + from_node.stderr
    files, node = (loads((tmp_path / name).read_text()) for name in ("files.json", "node.json"))
    assert files.pop("source") == f"transactions from {chain_dir}"
    assert node.pop("source").startswith(f"ledger slots {slots[0]}..{slots[-1]} of http://127.0.0.1:")
    assert len(files["transactions"]) == len(read_chain(chain_dir).manifest["transactions"])
    assert node == files, "every derived value (hashes, leaf indices, roots, prover inputs) is the same"
