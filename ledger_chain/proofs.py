"""Validity proofs for the chain's transactions: the real light prover, with every proof kept on disk.

Groth16 proofs are randomised: the same inputs proven twice give two different (both valid)
proofs, so two runs would sign different transactions. Every proof is therefore kept in a cache
folder under the SHA-256 of the prover request's bytes, and a replay of the same operations asks
the prover nothing: the same request finds the same proof, so the same transaction bytes and
signatures. The prover (`ledger_proofs.process`, one per process) is started only when a request
is not in the cache. The request is the one of real-proofs.md, with the key names of both
generations of the prover (the 0.18.0 prover reads `input-compressed-accounts` / `new-addresses`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import httpx
from csi_conformance.groundwork.cache import user_cache
from csi_conformance.groundwork.errors import ConfigError, JsonError
from csi_conformance.groundwork.jsonio import dumps, loads
from csi_conformance.ledger_proofs.install import find_installation
from csi_conformance.ledger_proofs.process import ProverStartError, shared_prover, shared_v2_prover
from csi_conformance.ledger_proofs.proof_cache import cached_proof
from csi_conformance.ledger_proofs.request_v2 import V2Account, v2_request

__all__ = ["AccountProof", "AddressProof", "BatchProving", "ChainProver", "ProverUnavailable", "ask_prover",
           "default_cache_dir", "request_body"]


class ProverUnavailable(ConfigError):
    """A proof is needed, is not in the cache, and the light prover cannot make it."""


@dataclass(frozen=True, slots=True)
class AccountProof:
    """Inclusion of a leaf: the root it folds to, its index and its 26 siblings."""

    root: bytes
    leaf_index: int
    path: tuple[bytes, ...]
    leaf: bytes


@dataclass(frozen=True, slots=True)
class AddressProof:
    """Non-inclusion of an address: the low element that brackets it, its index and path, and the root."""

    root: bytes
    value: int
    low_index: int
    path: tuple[bytes, ...]
    low_value: int
    low_next_value: int
    low_next_index: int


def _hex(value: bytes | int) -> str:
    return "0x" + (value.hex() if isinstance(value, bytes) else f"{value:064x}")


def request_body(accounts: Sequence[AccountProof], addresses: Sequence[AddressProof]) -> bytes:
    """The prover's `POST /prove` body, as bytes: the cache key is their hash."""
    if not accounts and not addresses:
        raise ValueError("nothing to prove: no accounts and no new addresses")
    body: dict[str, Any] = {
        "circuitType": "combined" if accounts and addresses else "inclusion" if accounts else "non-inclusion"}
    if accounts:
        items = [{"root": _hex(a.root), "pathIndex": a.leaf_index, "pathElements": [_hex(p) for p in a.path],
                  "leaf": _hex(a.leaf)} for a in accounts]
        body.update({"stateTreeHeight": len(accounts[0].path), "inputCompressedAccounts": items,
                     "input-compressed-accounts": items})
    if addresses:
        items = [{"root": _hex(a.root), "value": _hex(a.value), "pathIndex": a.low_index,
                  "pathElements": [_hex(p) for p in a.path], "leafLowerRangeValue": _hex(a.low_value),
                  "leafHigherRangeValue": _hex(a.low_next_value), "nextIndex": a.low_next_index} for a in addresses]
        body.update({"addressTreeHeight": len(addresses[0].path), "newAddresses": items, "new-addresses": items})
    return dumps(body).encode()


def default_cache_dir() -> Path:
    """`$CSI_CHAIN_PROOFS`, else `${XDG_CACHE_HOME:-~/.cache}/csi-conformance/chain-proofs`."""
    return user_cache("chain-proofs", variable="CSI_CHAIN_PROOFS")


class BatchProving(Protocol):
    """What proves the forester's batch transitions: a prover request's bytes in, the compressed proof out."""

    def prove(self, body: bytes) -> dict[str, list[int]]: ...


@dataclass
class ChainProver:
    """Proofs by request: from the cache folder, else from the light prover (then kept)."""

    cache_dir: Path = field(default_factory=default_cache_dir)
    url: str | None = None
    """A running prover; None starts the process-wide one on the first request not cached."""
    timeout: float = 120.0
    proved: int = 0
    cached: int = 0
    on_start: Callable[[str], None] | None = None
    batch: BatchProving | None = None
    """The forester's prover of the batch circuits (`batch_forester.BatchProver`), when the chain's programs carry
    the kit setup's batch keys."""

    def prove(self, accounts: Sequence[AccountProof], addresses: Sequence[AddressProof]) -> dict[str, list[int]]:
        """The compressed proof `{a, b, c}` (lists of byte values) for these accounts and addresses."""
        return self._proof(request_body(accounts, addresses), self._endpoint)

    def prove_v2(self, accounts: Sequence[V2Account]) -> dict[str, list[int]]:
        """A v2 inclusion proof (batched trees, height 32) from the light prover of the v2 circuits (npm 0.27.0,
        its June 2025 keys), kept in the same cache by its request's bytes."""
        _, body = v2_request(accounts, ())
        return self._proof(dumps(body).encode(), self._v2_endpoint)

    def _proof(self, body: bytes, endpoint: Callable[[], str]) -> dict[str, list[int]]:
        proof, cached = cached_proof(self.cache_dir, body, lambda: ask_prover(endpoint(), body, self.timeout))
        if cached:
            self.cached += 1
        else:
            self.proved += 1
        return proof

    def _endpoint(self) -> str:
        if self.url is None:
            installation = find_installation()
            if installation is None:
                raise ProverUnavailable("a proof is needed and the light prover is not installed: run "
                                        "`csi prover install`")
            prover = shared_prover(installation)
            self.url = prover.url
            if self.on_start is not None:
                self.on_start(f"light prover on {prover.url}, started in {prover.started_in or 0:.1f} s")
        return self.url.rstrip("/") + "/prove"

    def _v2_endpoint(self) -> str:
        try:
            prover = shared_v2_prover()
        except ProverStartError as exc:
            raise ProverUnavailable(f"a v2 proof is needed: {exc}") from exc
        assert prover is not None  # waited for
        return prover.url.rstrip("/") + "/prove"


def ask_prover(endpoint: str, body: bytes, timeout: float) -> Any:
    """POST a request to a light prover's `/prove`; its JSON answer, or ProverUnavailable saying why not."""
    try:
        answer = httpx.post(endpoint, content=body, timeout=timeout, headers={"content-type": "application/json"})
    except httpx.HTTPError as exc:
        raise ProverUnavailable(f"the light prover at {endpoint} did not answer: {exc}") from exc
    if answer.status_code != 200:
        raise ProverUnavailable(f"the light prover refused the chain's inputs (HTTP {answer.status_code}): "
                                f"{answer.text[:300]}")
    try:
        return loads(answer.content)
    except JsonError as exc:
        raise ProverUnavailable(f"the light prover answered no JSON: {exc}") from exc
