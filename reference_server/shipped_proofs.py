"""The proofs of the default certification, shipped with the kit: on a fresh machine `csi run` makes none.

The bundled reference over the default scenario is asked the same proof requests on every machine (the
scenario and the run's requests are seeded), so the proofs the light prover made for them are data. They are
kept in `scenarios/default-proofs.json` under the proof cache's names (the SHA-256 of the keys' package and the
request's bytes: `ledger_proofs.proof_cache`), with the keys they were made under and the ledger they prove (a
digest of its trees' roots). The reference reads a proof there when the machine's cache lacks it; a request of
another ledger, seed or keys finds none and is proven, the prover started for it. The harness verifies each as
it verifies a made one (crypto.groth16-proof). `CSI_SHIPPED_PROOFS=0` leaves them unread: to measure the
prover, or to make them again after the default run's requests changed (`reference_server/ship_proofs.py`):

    python -m csi_conformance.reference_server.ship_proofs
"""

from __future__ import annotations

import functools
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from csi_conformance.groundwork.jsonio import loads

__all__ = ["OFF", "SHIPPED", "ShippedProofs", "read_shipped", "shipped_proofs"]

SHIPPED = Path(__file__).with_name("scenarios") / "default-proofs.json"
OFF = "CSI_SHIPPED_PROOFS"
"""`0` leaves the shipped proofs unread."""


@dataclass(frozen=True)
class ShippedProofs:
    """Proofs made under `keys` (a prover package, `proof_cache.keys_of`) for the ledgers named in `ledgers`."""

    keys: str
    ledgers: frozenset[str]
    proofs: Mapping[str, dict]


def shipped_proofs(keys: str) -> ShippedProofs | None:
    """The shipped proofs when they were made under `keys` and are not turned off (`CSI_SHIPPED_PROOFS=0`)."""
    if os.environ.get(OFF, "1") == "0":
        return None
    found = read_shipped(SHIPPED)
    return found if found is not None and found.keys == keys else None


@functools.cache
def read_shipped(path: Path) -> ShippedProofs | None:
    """The proofs of a shipped-proofs file (read once per process), None when there is none."""
    if not path.is_file():
        return None
    document = loads(path.read_text(encoding="utf-8"))
    return ShippedProofs(document["keys"], frozenset(document["ledgers"]), document["proofs"])
