"""Fixtures of the proof tests: the installed light prover, and the process-wide prover the reference uses."""

from __future__ import annotations

import pytest
from csi_conformance.ledger_proofs.install import Installation
from csi_conformance.ledger_proofs.process import ProverProcess, shared_prover

from tests.ledger_proofs.support import installed_prover


@pytest.fixture(scope="session")
def prover_installation() -> Installation:
    return installed_prover()


@pytest.fixture(scope="session")
def prover(prover_installation: Installation) -> ProverProcess:
    """Started once per test process and ended at exit, shared with any reference started with --prover light."""
    return shared_prover(prover_installation)
