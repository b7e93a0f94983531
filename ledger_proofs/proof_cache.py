"""Proofs kept on disk by their exact request: a proof is made once per machine, then read back.

A Groth16 proof depends on the circuit's proving key and on its public and private inputs; the prover
request's bytes hold all the inputs, and the prover's package names the keys. So a proof is kept under
the SHA-256 of (the keys' package, the request bytes): the same request under the same keys finds the same
proof (any change of state changes a root, a leaf or a path, so the bytes), and a proof of other keys is
never found. The chain keeps its proofs this way (transactions must be the same bytes on a replay), and so
does the reference (a warm run makes no proof and starts no prover). A damaged entry is proven again.

Which ledgers a cache has proven for is kept too (`mark_ledger`, `knows_ledger`): a reference over a
ledger the cache has not seen starts its prover in the background at once; over one it has, only when a
request finds no proof.
"""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from csi_conformance.groundwork.cache import user_cache
from csi_conformance.groundwork.errors import JsonError
from csi_conformance.groundwork.files import write_atomic
from csi_conformance.groundwork.jsonio import dumps, loads
from csi_conformance.ledger_crypto.groth16 import proof_from_gnark

__all__ = ["cached_proof", "keys_of", "knows_ledger", "mark_ledger", "proof_cache_dir"]


def proof_cache_dir() -> Path:
    """`$CSI_PROOF_CACHE`, else `${XDG_CACHE_HOME:-~/.cache}/csi-conformance/proofs`: the reference's proofs."""
    return user_cache("proofs", variable="CSI_PROOF_CACHE")


def keys_of(manifest: Mapping[str, Any]) -> str:
    """How a prover package's manifest names its proving keys to the cache: the package, version and integrity."""
    return f"{manifest['package']}@{manifest['version']} {manifest['integrity']}"


def cached_proof(cache_dir: Path, body: bytes, ask: Callable[[], Any], *, keys: str = "",
                 shelf: Mapping[str, dict] | None = None) -> tuple[dict, bool]:
    """The compressed proof of a prover request from `cache_dir`, else from `shelf` (proofs shipped under the same
    names, read only), else from `ask()` (gnark's JSON), then kept; and whether it was found. `keys` names the
    proving keys (their package); the chain's own cache, made before keys were named, keeps its proofs under the
    request alone (`keys` empty)."""
    name = hashlib.sha256((keys.encode() + b"\0" if keys else b"") + body).hexdigest()
    path = cache_dir / f"{name}.json"
    if path.is_file():
        try:
            return loads(path.read_text(encoding="utf-8")), True
        except (OSError, JsonError, ValueError):
            path.unlink(missing_ok=True)
    if shelf is not None and name in shelf:
        return copy.deepcopy(shelf[name]), True  # the shelf's own stays as shipped
    proof = proof_from_gnark(ask())
    cache_dir.mkdir(parents=True, exist_ok=True)
    write_atomic(path, dumps(proof))
    return proof, False


def _ledger_mark(cache_dir: Path, ledger: str) -> Path:
    return cache_dir / "ledgers" / hashlib.sha256(ledger.encode()).hexdigest()


def mark_ledger(cache_dir: Path, ledger: str) -> None:
    """Remember that a proof of the ledger named `ledger` (a digest of its roots) is in the cache."""
    path = _ledger_mark(cache_dir, ledger)
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, "")


def knows_ledger(cache_dir: Path, ledger: str) -> bool:
    """Whether proofs of the ledger named `ledger` were made into this cache before."""
    return _ledger_mark(cache_dir, ledger).exists()
