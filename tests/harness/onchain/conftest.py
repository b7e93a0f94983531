"""Fixtures of the onchain tests: the chain tests/ledger_chain generates (36 operations of every kind,
proofs from the user's proof cache), the reference's ledger over its blocks, the chain replayed into
LiteSVM (and seen through its judging face, as a run sees it), and the light prover the targets prove
with (installed when missing: a failure, never a skip, without npm); and a chain of today's programs
(0.28.3) as published, whose accounts wait in batched trees' output queues, with the reference's ledger over
it; and a chain of today's programs with the June 2025 verifying keys (the default of `csi chain generate`),
whose verifier takes the installed prover's v1 proofs."""

from __future__ import annotations

from pathlib import Path

import pytest
from csi_conformance.ledger_chain import Chain, ChainJudge, generate, load_chain
from csi_conformance.ledger_chain.generation import TODAY, programs_for
from csi_conformance.ledger_chain.programs_0_28 import TodayPrograms, install_today
from csi_conformance.ledger_chain.proofs import ChainProver
from csi_conformance.ledger_ingest import LedgerSource
from csi_conformance.ledger_proofs.install import Installation
from csi_conformance.ledger_proofs.process import ProverProcess, shared_prover
from csi_conformance.reference_server.ingest import ingest_source
from csi_conformance.reference_server.ledger import Ledger

from tests.ledger_chain.conftest import OPS, SEED
from tests.ledger_proofs.support import installed_prover


@pytest.fixture(scope="session")
def installation() -> Installation:
    return installed_prover()


@pytest.fixture(scope="session")
def chain_dir(installation: Installation, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generate(OPS, SEED, tmp_path_factory.mktemp("onchain") / "chain", prover=ChainProver(),
                    installation=installation).folder


@pytest.fixture(scope="session")
def loaded(chain_dir: Path, installation: Installation) -> Chain:
    return load_chain(chain_dir, installation=installation)


@pytest.fixture(scope="session")
def ledger(chain_dir: Path) -> Ledger:
    """What `csi serve --transactions` serves over the chain's blocks."""
    return ingest_source(LedgerSource.chain(chain_dir)).ledger


@pytest.fixture(scope="session")
def prover(installation: Installation) -> ProverProcess:
    return shared_prover(installation)


@pytest.fixture(scope="session")
def judge(loaded: Chain) -> ChainJudge:
    """The chain as a run holds it: through its judging face."""
    return ChainJudge(loaded)


TODAY_SEED = 8
TODAY_OPS = 30
"""Seed 8 writes accounts into both batched trees' output queues within 30 operations, plain and token ones,
and spends some of them by index."""


@pytest.fixture(scope="session")
def today_programs() -> TodayPrograms:
    return install_today()


@pytest.fixture(scope="session")
def today_dir(today_programs: TodayPrograms, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generate(TODAY_OPS, TODAY_SEED, tmp_path_factory.mktemp("onchain-today") / "chain", prover=ChainProver(),
                    installation=today_programs).folder


@pytest.fixture(scope="session")
def today_judge(today_dir: Path, today_programs: TodayPrograms) -> ChainJudge:
    return ChainJudge(load_chain(today_dir, installation=today_programs))


@pytest.fixture(scope="session")
def today_ledger(today_dir: Path) -> Ledger:
    """What `csi serve --transactions` serves over the chain of today's programs."""
    return ingest_source(LedgerSource.chain(today_dir)).ledger


PATCHED_SEED, PATCHED_OPS = 4, 40
"""A chain of today's programs with the June 2025 keys and the forester (its proofs are in the proof cache): v1
spends and new v1 addresses with real proofs, 4 batch appends and 2 batch nullifies, accounts both queued and
appended in batched trees."""


@pytest.fixture(scope="session")
def patched_programs() -> TodayPrograms:
    """The default of `csi chain generate`: the June 2025 keys, and the kit setup's batch keys (the forester's
    batches append accounts to the batched trees, which v2 proofs then prove)."""
    return programs_for(TODAY)


@pytest.fixture(scope="session")
def patched_dir(patched_programs: TodayPrograms, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generate(PATCHED_OPS, PATCHED_SEED, tmp_path_factory.mktemp("onchain-patched") / "chain",
                    prover=ChainProver(), installation=patched_programs).folder


@pytest.fixture(scope="session")
def patched_judge(patched_dir: Path, patched_programs: TodayPrograms) -> ChainJudge:
    return ChainJudge(load_chain(patched_dir, installation=patched_programs))


@pytest.fixture(scope="session")
def patched_ledger(patched_dir: Path) -> Ledger:
    return ingest_source(LedgerSource.chain(patched_dir)).ledger
