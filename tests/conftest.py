"""Shared fixtures of the kit's own tests.

Tests that are not about proofs run the reference with the placeholder prover (`CSI_PROVER=none`,
inherited by every `csi` they start) and leave `crypto.groth16-proof` out by name: the placeholder
rightly fails it. The proof tests start the real light prover themselves.
"""

from __future__ import annotations

import os

import pytest
from csi_conformance.schema import Contract

os.environ.setdefault("CSI_PROVER", "none")
PROOF_CHECK = "crypto.groth16-proof"


@pytest.fixture(scope="session")
def contract() -> Contract:
    return Contract.default()
