"""How a reference server instance is configured (`csi serve` flags map onto these fields)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["ServerOptions"]


@dataclass(frozen=True)
class ServerOptions:
    """Settings of one server; every default is the observed practice where the spec is silent."""

    api_key: str | None = None
    """When set, a request without this `api-key` query value is refused (the spec leaves it open, 5-R4)."""
    rate_limit: float | None = None
    """Requests per second over which the server answers HTTP 429 `{error}` (7-R2); None for no limit."""
    max_stale_slots: int = 20
    """getIndexerHealth fails once the chain tip is more than this many slots ahead (7-C3)."""
    prover_url: str | None = None
    """A prover service for compressedProof; without one, deterministic well-formed points."""
    v2_prover: str | None = None
    """Where v2 proofs (batched trees) come from: `prover_v2.KIT_V2` (the kit's 0.27.0 prover) or a URL; None: a
    v2 proof is served as null."""
    proof_form: Literal["wire", "spec-2.10"] = "wire"
    """Which reading of ambiguity validity-proof-fields getValidityProof answers with."""
    max_body_bytes: int = 10 * 1024 * 1024
    """Bodies over this size get HTTP 413 (observed: 10 MiB)."""
    max_batch: int = 100
    """Requests in one batch at most; a larger batch is an invalid request."""
    dispatch_in_threads: bool | None = None
    """Answer each request in a worker thread, which a dispatcher that can block needs (one that
    waits on a prover). None: only when `prover_url` is set. The methods are CPU-bound Python, so
    threads add no parallelism, only a hand-off per request, and answering on the event loop is
    faster (benchmarks/README.md, "Targets missed at first")."""

    @property
    def threads(self) -> bool:
        return self.prover_url is not None if self.dispatch_in_threads is None else self.dispatch_in_threads
