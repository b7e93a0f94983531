"""The reference never fails itself: over every ledger it can load, `csi run` against `csi serve` finds no FAIL.

The ledgers: every folder of Photon HEAD's test data (`tests/ledger_ingest/fixtures/photon-head/`; under the
spec's contract in `tests/ledger_ingest/test_certify_photon_head.py`), a chain of each program set (0.18.0's v1
trees; 0.28.3's batched trees as published, with the June 2025 keys, and with the forester), and every bundled
scenario, certified under both contracts (`--api 0.50.0`, the spec's, and `photon-366a15b`, the one clients call
today; a chain under the one that fits it). Both commands run as installed, over real HTTP on loopback, while
the test keeps every core of the machine busy with spinning processes: a verdict must not depend on the load of
the machine that runs the kit.

The reference serves placeholder proofs (`--prover none`), so the checks that judge a proof's bytes are left
out by name (`crypto.groth16-proof`, and on a chain `onchain.proof-accepted`); the real prover's proofs are
judged in tests/ledger_proofs and tests/harness/onchain. Any FAIL, any ERROR, any inconclusive run is a bug of
the reference or a misjudgement of the harness: the test lists each one.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from csi_conformance.ledger_chain import generate
from csi_conformance.ledger_chain.generation import TODAY, programs_for
from csi_conformance.ledger_chain.patched_programs import install_patched
from csi_conformance.ledger_chain.programs_0_28 import install_today
from csi_conformance.ledger_chain.proofs import ChainProver
from csi_conformance.reference_server.scenarios import __file__ as _scenarios_init

from tests.conftest import PROOF_CHECK
from tests.harness.csi_process import csi_run
from tests.ledger_proofs.support import installed_prover
from tests.reference_server.support import csi_serve

PHOTON_HEAD = Path(__file__).parent / "ledger_ingest" / "fixtures" / "photon-head"
FOLDERS = sorted(p for p in (PHOTON_HEAD / "transactions").iterdir() if p.is_dir()) + sorted(
    p for p in (PHOTON_HEAD / "blocks").iterdir() if p.is_dir())
SCENARIOS = sorted(p.stem for p in Path(_scenarios_init).parent.glob("*.yaml"))
APIS = ("0.50.0", "photon-366a15b")
CHAINS = (("v1", 8, 36, "0.50.0"), ("published", 1, 30, "photon-366a15b"), ("today", 2, 30, "photon-366a15b"),
          ("default", 4, 40, "photon-366a15b"))
"""(program set, seed, operations, contract): `published` is today's programs as npm has them (October 2025 keys),
`today` with the June 2025 keys, `default` adds the kit setup's batch keys (the forester's batches, v2 spends by
root), as `csi chain generate` makes it. A v1 chain under the spec's contract, today's under the one whose V2
methods name batched trees (the other contract is the scenarios' and the folders'); seeds 8 and 4 are the ones the
chain tests use (their proofs are cached by then)."""
ONCHAIN_PROOF = "onchain.proof-accepted"


@pytest.fixture(scope="module", autouse=True)
def busy_cores() -> Iterator[int]:
    """Every core kept busy by a spinning process for the whole module, as on a shared CI runner."""
    count = os.cpu_count() or 2
    spinners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]
    try:
        yield count
    finally:
        for spinner in spinners:
            spinner.kill()
            spinner.wait()


def _wrong(report: dict) -> list[str]:
    return [f"{f['status']} {f['check_id']} {f.get('method')}: {f.get('message', '')[:300]}"
            for f in report["findings"] if f["status"] in ("FAIL", "ERROR")]


def _certify(url: str, api: str, tmp_path: Path, *extra: str) -> None:
    done = csi_run("--target", url, "--api", api, "--skip", PROOF_CHECK, *extra, cwd=tmp_path,
                   env={"CSI_PROVER": "none"})
    wrong = _wrong(done.report)
    assert wrong == [], "\n".join(wrong)
    assert done.code == 0, done.explain()
    examined = [c for c in done.report["checks"] if c["status"] == "PASS"]
    assert examined, "a run that passed no check proves nothing"


@pytest.fixture(scope="module", params=FOLDERS, ids=lambda p: f"{p.parent.name}/{p.name}")
def folder_url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with csi_serve("--port", "0", "--prover", "none", "--transactions", request.param,
                   cwd=tmp_path_factory.mktemp("serve")) as server:
        yield server.url


def test_every_photon_head_folder(folder_url: str, tmp_path: Path) -> None:
    """Under the second contract: the spec's is tests/ledger_ingest/test_certify_photon_head.py's, folder by folder."""
    _certify(folder_url, "photon-366a15b", tmp_path)


@pytest.fixture(scope="module", params=SCENARIOS)
def scenario_url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    with csi_serve("--port", "0", "--prover", "none", "--scenario", request.param,
                   cwd=tmp_path_factory.mktemp("serve")) as server:
        yield server.url, request.param


@pytest.mark.parametrize("api", APIS)
def test_every_bundled_scenario(scenario_url: tuple[str, str], api: str, tmp_path: Path) -> None:
    url, scenario = scenario_url
    _certify(url, api, tmp_path, "--scenario", scenario)


@pytest.fixture(scope="module", params=CHAINS, ids=lambda c: f"{c[0]}-seed{c[1]}-{c[2]}ops-{c[3]}")
def chain_url(request: pytest.FixtureRequest,
              tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path, str]]:
    programs, seed, ops, api = request.param
    installation = {"v1": installed_prover, "published": install_today, "today": install_patched,
                    "default": lambda: programs_for(TODAY)}[programs]()
    folder = generate(ops, seed, tmp_path_factory.mktemp(f"chain-{programs}") / "chain", prover=ChainProver(),
                      installation=installation).folder
    with csi_serve("--port", "0", "--prover", "none", "--transactions", folder,
                   cwd=tmp_path_factory.mktemp("serve")) as server:
        yield server.url, folder, api


@pytest.mark.chain
def test_generated_chains_of_every_program_set(chain_url: tuple[str, Path, str], tmp_path: Path) -> None:
    """`--chain` also replays the chain into LiteSVM and puts the target's answers before Light's programs."""
    url, folder, api = chain_url
    _certify(url, api, tmp_path, "--chain", str(folder), "--skip", ONCHAIN_PROOF)
