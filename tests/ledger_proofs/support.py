"""Shared by the proof tests: the committed real proofs, and the installed prover (installed when missing).

Tests that need the prover install it through `ledger_proofs.install` (cached in the user cache
folder, or $CSI_PROVER_DIR). Where npm is missing, that raises: such a test fails, never skips.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from csi_conformance.ledger_proofs.batch_setup import KitSetup, find_kit_setup, make_kit_setup
from csi_conformance.ledger_proofs.circuits import CIRCUITS, Circuit
from csi_conformance.ledger_proofs.install import Installation, install
from csi_conformance.ledger_proofs.install_v2 import V2Installation, install_v2

FIXTURE = Path(__file__).parent / "fixtures" / "proofs.json"


@cache
def fixture_proofs() -> list[dict[str, Any]]:
    """Real proofs by the light prover over the default scenario (make_fixtures.py), one per circuit."""
    return json.loads(FIXTURE.read_text(encoding="utf-8"))["proofs"]


def circuit_named(name: str) -> Circuit:
    return next(c for c in CIRCUITS.values() if c.name == name)


@cache
def installed_prover() -> Installation:
    """The prover, installed with npm on first use (a failure, never a skip, when that cannot be done)."""
    return install()


def installed_v2_prover() -> V2Installation:
    """The prover of the v2 circuits (npm 0.27.0), installed with npm on first use (a failure, never a skip)."""
    return install_v2()


def made_kit_setup() -> KitSetup:
    """The kit setup of the batch circuits, made once per machine (about two minutes) with the 0.27.0 prover,
    installed first when missing (a failure, never a skip)."""
    return find_kit_setup() or make_kit_setup(installed_v2_prover().binary, say=print)
