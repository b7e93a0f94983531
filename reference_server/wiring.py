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

__all__ = ["app_for", "bundled_reference", "certified_reference"]


def app_for(ledger: Ledger, options: ServerOptions, contract: Contract | None = None) -> Starlette:
    """The ASGI app of a reference server over `ledger`."""
    contract = contract or Contract.default()
    return create_app(lambda method, params: call(ledger, method, params, options, contract), options,
                      contract=contract)


@contextlib.contextmanager
def bundled_reference(
    scenario: str | Mapping[str, Any] = "default", options: ServerOptions | None = None, *,
    ledger: Mapping[str, Any] | None = None, keys_out: str | Path | None = None,
) -> Iterator[str]:
    """A reference server on a free loopback port; yields its base URL.

    `scenario` is a bundled scenario's name, a scenario file, or a scenario document (a mapping
    in the format of cases/scenarios/README.md), which is how the harness serves the ledger it
    mirrored from a live target. An invalid document raises `ConfigError` before anything is
    served. Registered as the `csi.reference` entry point: `csi run` with no target certifies it.

    `ledger` is a ledger source instead (reference_server/ingest.py): the reference reads real
    transactions, from files or a slice of a Solana JSON-RPC endpoint, and `scenario` is ignored.
    `keys_out` then names a file to write the ledger's keys to, in the `--keys` form.
    """
    options = options or ServerOptions()
    if ledger is not None:
        from reference_server.ingest import ingest_source, slice_keys

        built = ingest_source(ledger)
        if keys_out is not None:
            Path(keys_out).write_text(yaml.safe_dump(slice_keys(built.ledger), sort_keys=False), encoding="utf-8")
        with running_server(app_for(built.ledger, options)) as url:
            yield url
        return
    if isinstance(scenario, Mapping):
        ledger = scenario_from_document(dict(scenario), source="<scenario document>").ledger
    else:
        ledger = load_scenario(scenario)
    with running_server(app_for(ledger, options)) as url:
        yield url


@contextlib.contextmanager
def certified_reference(*args: Any, options: ServerOptions | None = None, **kwargs: Any) -> Iterator[str]:
    """`bundled_reference` with the prover `csi serve` would use: the light prover when it is installed
    (or `$CSI_PROVER` says light), else the placeholder, said on stderr. Registered as the
    `csi.reference` entry point, so `csi run` with no target certifies the reference with real proofs.
    Given `options` are used as they are."""
    if options is None:
        options = ServerOptions(prover_url=start_prover(say=lambda line: print(f"csi reference: {line}",
                                                                                file=sys.stderr)))
    with bundled_reference(*args, options=options, **kwargs) as url:
        yield url
