"""Shared fixtures of the kit's own tests.

Tests that are not about proofs run the reference with the placeholder prover (`CSI_PROVER=none`,
inherited by every `csi` they start) and leave `crypto.groth16-proof` out by name: the placeholder
rightly fails it. The proof tests start the real light prover themselves.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator

import pytest
from csi_conformance.schema import Contract

os.environ.setdefault("CSI_PROVER", "none")
PROOF_CHECK = "crypto.groth16-proof"


@pytest.fixture(scope="session")
def contract() -> Contract:
    return Contract.default()


@pytest.fixture
def python_default_signals() -> Iterator[None]:
    """SIGINT and SIGTERM as a terminal's `csi` starts with them, whatever this test process was started with
    (a CI job may start it with SIGINT ignored); restored after."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler), signal.signal(signal.SIGTERM, signal.SIG_DFL)
    yield
    signal.signal(signal.SIGINT, before[0])
    signal.signal(signal.SIGTERM, before[1])
