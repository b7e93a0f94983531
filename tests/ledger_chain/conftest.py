"""Fixtures of the chain's tests: Light's programs (installed with the prover when missing), and one
small chain generated once per session with real proofs, kept in the proof cache so a second run
proves nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from csi_conformance.ledger_chain import Chain, Generated, generate, load_chain
from csi_conformance.ledger_chain.patched_programs import install_patched
from csi_conformance.ledger_chain.programs_0_28 import TodayPrograms, install_today
from csi_conformance.ledger_chain.proofs import ChainProver
from csi_conformance.ledger_proofs.install import Installation

from tests.ledger_proofs.support import installed_prover

SEED = 8
OPS = 36
"""Seed 8 shows every kind of operation within 36, and leaves a user with 9 plain accounts."""


@pytest.fixture(scope="session")
def installation() -> Installation:
    """The prover and Light's programs, installed with npm on first use (a failure, never a skip, without npm)."""
    return installed_prover()


@pytest.fixture(scope="session")
def chain_prover() -> ChainProver:
    """Proofs from the user's proof cache, else from the process-wide light prover."""
    return ChainProver()


@pytest.fixture(scope="session")
def generated(installation: Installation, chain_prover: ChainProver,
              tmp_path_factory: pytest.TempPathFactory) -> Generated:
    return generate(OPS, SEED, tmp_path_factory.mktemp("chain") / "chain", prover=chain_prover,
                    installation=installation)


@pytest.fixture(scope="session")
def chain_dir(generated: Generated) -> Path:
    return generated.folder


@pytest.fixture(scope="session")
def loaded(chain_dir: Path, installation: Installation) -> Chain:
    """The test chain replayed into LiteSVM: its final state."""
    return load_chain(chain_dir, installation=installation)


TODAY_SEED = 4
TODAY_OPS = 40
"""Seed 4 draws every kind of today's chain (with the June 2025 verifying keys) within 40 operations: v1 spends
and new v1 addresses with real proofs among them."""


@pytest.fixture(scope="session")
def today_programs() -> TodayPrograms:
    """Today's programs (0.28.3) with the June 2025 verifying keys, the default of `csi chain generate`: installed
    with npm and patched on first use."""
    return install_patched()


@pytest.fixture(scope="session")
def published_programs() -> TodayPrograms:
    """Today's programs (0.28.3) as published, with the October 2025 verifying keys."""
    return install_today()


@pytest.fixture(scope="session")
def today_generated(today_programs: TodayPrograms, tmp_path_factory: pytest.TempPathFactory) -> Generated:
    """Today's chain, with a prover of its own: a generation's counts of proofs made and cached are its own,
    whichever chain the session generates first."""
    return generate(TODAY_OPS, TODAY_SEED, tmp_path_factory.mktemp("today") / "chain", prover=ChainProver(),
                    installation=today_programs)
