"""Put the pieces together: a scenario's ledger, the methods, and the HTTP app around them."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping
from typing import Any

from starlette.applications import Starlette

from reference_server.app import create_app
from reference_server.ledger import Ledger
from reference_server.methods import call
from reference_server.options import ServerOptions
from reference_server.scenario import load_scenario, scenario_from_document
from reference_server.serve import running_server
from schema import Contract

__all__ = ["app_for", "bundled_reference"]


def app_for(ledger: Ledger, options: ServerOptions, contract: Contract | None = None) -> Starlette:
    """The ASGI app of a reference server over `ledger`."""
    contract = contract or Contract.default()
    return create_app(lambda method, params: call(ledger, method, params, options, contract), options,
                      contract=contract)


@contextlib.contextmanager
def bundled_reference(
    scenario: str | Mapping[str, Any] = "default", options: ServerOptions | None = None
) -> Iterator[str]:
    """A reference server on a free loopback port; yields its base URL.

    `scenario` is a bundled scenario's name, a scenario file, or a scenario document (a mapping
    in the format of cases/scenarios/README.md), which is how the harness serves the ledger it
    mirrored from a live target. An invalid document raises `ConfigError` before anything is
    served. Registered as the `csi.reference` entry point: `csi run` with no target certifies it.
    """
    options = options or ServerOptions()
    if isinstance(scenario, Mapping):
        ledger = scenario_from_document(dict(scenario), source="<scenario document>").ledger
    else:
        ledger = load_scenario(scenario)
    with running_server(app_for(ledger, options)) as url:
        yield url
