"""Put the pieces together: a scenario's ledger, the methods, and the HTTP app around them."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from csi_conformance.groundwork.base58 import b58encode
from csi_conformance.groundwork.errors import UsageError
from csi_conformance.ledger_ingest import LedgerSource
from csi_conformance.ledger_proofs.install import find_installation
from csi_conformance.reference_server.app import create_app
from csi_conformance.reference_server.ingest import ingest_source, slice_keys
from csi_conformance.reference_server.ledger import Ledger
from csi_conformance.reference_server.ledger_native import NativeLedger
from csi_conformance.reference_server.methods import call
from csi_conformance.reference_server.options import ServerOptions
from csi_conformance.reference_server.prover import KIT_V1, choose_prover, warm_v1
from csi_conformance.reference_server.prover_v2 import v2_prover_for, warm_v2
from csi_conformance.reference_server.scenario import load_scenario, scenario_from_document
from csi_conformance.reference_server.serve import running_server
from csi_conformance.schema import Contract
from starlette.applications import Starlette

__all__ = ["SERVED_API", "ReferenceHandle", "Source", "app_for", "bundled_reference", "certified_reference",
           "reference_ledger"]


SERVED_API = "photon-366a15b"
"""The contract a reference serves unless told otherwise: the spec's 19 methods and the 20 more Photon serves at
366a15b, which today's clients call (a superset: every request of the spec's contract is answered as before)."""


def app_for(ledger: Ledger, options: ServerOptions, contract: Contract | None = None) -> Starlette:
    """The ASGI app of a reference server over `ledger`, serving `contract` (by default `SERVED_API`'s)."""
    contract = contract or Contract.for_api(SERVED_API)
    return create_app(lambda method, params: call(ledger, method, params, options, contract), options,
                      contract=contract)


Source = str | Mapping[str, Any] | LedgerSource
"""What a reference serves: a bundled scenario's name or a scenario file, a scenario document (a mapping
in the format of reference_server/scenarios/README.md: how the harness serves what it mirrored), or a
ledger source (real transactions from files, a slice of a Solana JSON-RPC endpoint, a generated chain)."""


@dataclass(frozen=True)
class ReferenceHandle:
    """A running reference, as the `csi.reference` entry point yields it (harness.connection.reference)."""

    url: str
    keys: dict[str, list[str]] = field(default_factory=dict)
    """The keys of a ledger source's ledger by kind (the `--keys` kinds); empty for a scenario."""
    proofs: str = "placeholder"
    """`real` when getValidityProof carries the light prover's proofs, `placeholder` when it does not."""
    partial_trees: tuple[str, ...] = ()
    """The trees (base58) of which the reference has not seen every leaf (a ledger slice that starts mid-chain):
    its roots and proofs for them are not the chain's, so no target is compared with them."""
    batched_trees: tuple[str, ...] = ()
    """The batched (v2) state trees (base58) of its ledger: their accounts hash big-endian and wait in queues."""


def reference_ledger(source: Source = "default") -> Ledger:
    """The ledger a reference serves; an invalid source raises `ConfigError`."""
    if isinstance(source, LedgerSource):
        return ingest_source(source).ledger
    if isinstance(source, Mapping):
        return scenario_from_document(dict(source), source="<scenario document>").ledger
    return load_scenario(source)


@contextlib.contextmanager
def bundled_reference(source: Source = "default", options: ServerOptions | None = None,
                      api: str = SERVED_API) -> Iterator[str]:
    """A reference server on a free loopback port over `reference_ledger(source)`, with `options` (no prover
    by default), serving the contract `api`; yields its base URL. Nothing is served before the ledger is built."""
    built = reference_ledger(source)
    with running_server(app_for(built, options or ServerOptions(), Contract.for_api(api))) as url:
        yield url


@contextlib.contextmanager
def certified_reference(source: Source = "default", *, prover: str = "auto", options: ServerOptions | None = None,
                        api: str = SERVED_API) -> Iterator[ReferenceHandle]:
    """The `csi.reference` entry point: a reference over `source` on loopback, yielding its handle.

    `prover` is `auto` (the light prover when it is installed, or as `$CSI_PROVER` says), `light` or
    `none`; what was chosen is said on stderr. The ledger is built first, so a source that cannot be
    read fails before any prover starts. Given `options` are used as they are. `api` names the contract
    served (its practice where it differs from the spec's contract: `methods/photon_practice.py`)."""
    built = reference_ledger(source)
    if options is None:
        prover_url = _prover_url(prover)
        options = ServerOptions(prover_url=prover_url, v2_prover=v2_prover_for(prover_url))
    say = _saying("csi reference")
    warm_v1(options.prover_url, built, say=say)
    warm_v2(options.v2_prover, built, say=say)
    keys = slice_keys(built) if isinstance(source, LedgerSource) and isinstance(built, NativeLedger) else {}
    with running_server(app_for(built, options, Contract.for_api(api))) as url:
        yield ReferenceHandle(url, keys, "real" if options.prover_url else "placeholder",
                              tuple(b58encode(key) for key in built.partial_trees()),
                              tuple(b58encode(key) for key in built.batched_trees()))


def _saying(who: str) -> Callable[[str], None]:
    def say(line: str) -> None:
        print(f"{who}: {line}", file=sys.stderr, flush=True)

    return say


def _prover_url(prover: str) -> str | None:
    """The kit's own prover (`KIT_V1`: proofs from the proof cache, the prover started when one is lacking) for the
    bundled reference, or None for placeholders, said in one line."""
    if prover == "none":
        return None
    if prover == "auto" and choose_prover() == "none":
        _saying("csi reference")("no light prover installed: the bundled reference serves placeholder proofs and "
                                 "crypto.groth16-proof is UNVERIFIED; `csi prover install` (or `make prover`) to "
                                 "verify real ones")
        return None
    if find_installation() is None:
        raise UsageError("the light prover is not installed: run `csi prover install` (or give --prover none)")
    return KIT_V1
