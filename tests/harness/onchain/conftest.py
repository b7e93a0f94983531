"""Fixtures of the onchain tests: the chain tests/ledger_chain generates (36 operations of every kind,
proofs from the user's proof cache), the reference's ledger over its blocks, the chain replayed into
LiteSVM, and the light prover the targets prove with (installed when missing: a failure, never a
skip, without npm)."""

from __future__ import annotations

from pathlib import Path

import pytest
from csi_conformance.ledger_chain import Chain, generate, load_chain
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
