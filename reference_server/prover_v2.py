"""Where a v2 `compressedProof` comes from: the light prover of Light's v2 circuits (npm 0.27.0), started once.

An account appended to a batched state tree (height 32) and a new address of a batched address tree
(height 40) are proven by the v2 circuits, whose one public input is a hash of the roots, leaves and
addresses (`ledger_proofs.circuits_v2`). The 0.27.0 prover (`csi prover install --v2`) holds proving keys
of Light's June-2025 setup for 9 of them (`PROVABLE`); it starts in the background as soon as a ledger with
batched trees the proof cache has not seen is served (its keys take 30-60 s to load), and a proof request
waits for it; proofs are kept in the proof cache as the v1 prover's are (`prover.KitProver`). A count no
reachable setup has a proving key for, a request mixing v1 and v2 trees (no circuit takes both), or no
v2 prover installed: the proof is served as null, which the spec allows ("ValidityProof or null"), never a
placeholder that looks like a proof.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Sequence

from csi_conformance.groundwork.jsonio import dumps
from csi_conformance.ledger_proofs.circuits_v2 import PROVABLE
from csi_conformance.ledger_proofs.install_v2 import find_v2_installation, v2_manifest
from csi_conformance.ledger_proofs.process import ProverStartError, shared_v2_prover
from csi_conformance.ledger_proofs.proof_cache import keys_of, knows_ledger, mark_ledger, proof_cache_dir
from csi_conformance.ledger_proofs.request_v2 import V2Account, V2Address, v2_request
from csi_conformance.reference_server.ledger import Ledger
from csi_conformance.reference_server.prover import HttpProver, KitProver, roots_digest

__all__ = ["KIT_V2", "provable", "prove_v2", "v2_prover_for", "warm_v2"]

KIT_V2 = "kit:0.27.0"
"""`ServerOptions.v2_prover` naming the kit's own 0.27.0 prover, started on first need."""
PROOF_TIMEOUT = 120.0
"""Seconds a v2 proof may take, the prover's start included when it is the first."""


def v2_prover_for(prover_url: str | None) -> str | None:
    """The v2 prover of a reference that serves real proofs (`prover_url` set) when the 0.27.0 prover is
    installed; None otherwise (v2 proofs are then served as null)."""
    return KIT_V2 if prover_url and find_v2_installation() is not None else None


def warm_v2(v2_prover: str | None, ledger: Ledger, *, say: Callable[[str], None] | None = None) -> None:
    """Start the kit's v2 prover in the background when `ledger` holds something only a v2 circuit proves (an
    account appended to a batched tree, a batched address tree), so the first v2 proof does not wait for its keys;
    `say` is told so."""
    appended = any(ledger.state_trees[key].next_index for key in ledger.batched_trees())
    if v2_prover != KIT_V2 or not (appended or ledger.batched_address_trees):
        return
    cache, ledger_name = proof_cache_dir(), f"v2 {roots_digest(ledger)}"
    if knows_ledger(cache, ledger_name):
        return  # its v2 proofs are in the proof cache: a request the cache lacks starts the prover
    with contextlib.suppress(ProverStartError):  # said again, with the prover's log, by the request needing it
        shared_v2_prover(wait=False)
        mark_ledger(cache, ledger_name)
        if say is not None:
            say("starting the light prover of the v2 circuits (0.27.0) in the background for the batched "
                "trees' proofs: its keys load in 20-60 s, and the first v2 proof waits for them")


def provable(accounts: int, addresses: int) -> bool:
    """Whether the installed v2 prover has a proving key for these counts."""
    return (accounts, addresses) in PROVABLE


def prove_v2(v2_prover: str | None, accounts: Sequence[V2Account], addresses: Sequence[V2Address]) -> dict | None:
    """The compressed proof of these v2 elements, or None when there is no prover for them (see the module);
    ProverError when the prover fails."""
    if v2_prover is None or not provable(len(accounts), len(addresses)):
        return None
    _, body = v2_request(accounts, addresses)
    if v2_prover != KIT_V2:
        return HttpProver(v2_prover, timeout=PROOF_TIMEOUT).prove_body(dumps(body).encode())
    return KitProver(_kit_url, _kit_v2_keys()).prove_body(dumps(body).encode())


@functools.cache
def _kit_v2_keys() -> str:
    return keys_of(v2_manifest())  # read once, not on every proof request


def _kit_url() -> str:
    prover = shared_v2_prover()
    assert prover is not None  # waited for
    return prover.url
