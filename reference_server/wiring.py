"""Put the pieces together: a scenario's ledger, the methods, and the HTTP app around them."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import yaml
from starlette.applications import Starlette

from reference_server.app import create_app
from reference_server.ledger import Ledger
from reference_server.methods import call
from reference_server.options import ServerOptions
from reference_server.prover import start_prover
from reference_server.scenario import load_scenario, scenario_from_document
from reference_server.serve import running_server
from schema import Contract

__all__ = ["app_for", "bundled_reference", "certified_reference", "reference_ledger"]


def app_for(ledger: Ledger, options: ServerOptions, contract: Contract | None = None) -> Starlette:
    """The ASGI app of a reference server over `ledger`."""
    contract = contract or Contract.default()
    return create_app(lambda method, params: call(ledger, method, params, options, contract), options,
                      contract=contract)


def reference_ledger(scenario: str | Mapping[str, Any] = "default", *, ledger: Mapping[str, Any] | None = None,
                     keys_out: str | Path | None = None) -> Ledger:
    """The ledger a reference serves: a bundled scenario's name, a scenario file or document (a mapping in
    the format of cases/scenarios/README.md, which is how the harness serves what it mirrored), or,
    given `ledger`, a ledger source (reference_server/ingest.py: real transactions from files or a slice
    of a Solana JSON-RPC endpoint; `scenario` is then ignored and `keys_out` names a file to write the
    ledger's keys to, in the `--keys` form). An invalid source raises `ConfigError`."""
    if ledger is None:
        if isinstance(scenario, Mapping):
            return scenario_from_document(dict(scenario), source="<scenario document>").ledger
        return load_scenario(scenario)
    from reference_server.ingest import ingest_source, slice_keys

    built = ingest_source(ledger)
    if keys_out is not None:
        Path(keys_out).write_text(yaml.safe_dump(slice_keys(built.ledger), sort_keys=False), encoding="utf-8")
    return built.ledger


@contextlib.contextmanager
def bundled_reference(
    scenario: str | Mapping[str, Any] = "default", options: ServerOptions | None = None, *,
    ledger: Mapping[str, Any] | None = None, keys_out: str | Path | None = None,
) -> Iterator[str]:
    """A reference server on a free loopback port over `reference_ledger(...)`; yields its base URL.
    Nothing is served before the ledger is built."""
    built = reference_ledger(scenario, ledger=ledger, keys_out=keys_out)
    with running_server(app_for(built, options or ServerOptions())) as url:
        yield url


@contextlib.contextmanager
def certified_reference(
    scenario: str | Mapping[str, Any] = "default", options: ServerOptions | None = None, *,
    ledger: Mapping[str, Any] | None = None, keys_out: str | Path | None = None,
) -> Iterator[str]:
    """`bundled_reference` with the prover `csi serve` would use: the light prover when it is installed
    (or `$CSI_PROVER` says light), else the placeholder, said on stderr. Registered as the
    `csi.reference` entry point, so `csi run` with no target certifies the reference with real proofs.
    The ledger is built first, so a slice that cannot be read fails before the prover is started.
    Given `options` are used as they are."""
    built = reference_ledger(scenario, ledger=ledger, keys_out=keys_out)
    if options is None:
        options = ServerOptions(prover_url=start_prover(say=lambda line: print(f"csi reference: {line}",
                                                                                file=sys.stderr)))
    with running_server(app_for(built, options)) as url:
        yield url
