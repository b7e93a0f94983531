"""Put the pieces together: a scenario's ledger, the methods, and the HTTP app around them."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from starlette.applications import Starlette

from reference_server.app import create_app
from reference_server.ledger import Ledger
from reference_server.methods import call
from reference_server.options import ServerOptions
from reference_server.scenario import load_scenario
from reference_server.serve import running_server
from schema import Contract

__all__ = ["app_for", "bundled_reference"]


def app_for(ledger: Ledger, options: ServerOptions, contract: Contract | None = None) -> Starlette:
    """The ASGI app of a reference server over `ledger`."""
    contract = contract or Contract.default()
    return create_app(lambda method, params: call(ledger, method, params, options, contract), options,
                      contract=contract)


@contextlib.contextmanager
def bundled_reference(scenario: str = "default", options: ServerOptions | None = None) -> Iterator[str]:
    """A reference server over a bundled scenario on a free loopback port; yields its base URL.

    Registered as the `csi.reference` entry point: `csi run` with no target certifies it.
    """
    options = options or ServerOptions()
    with running_server(app_for(load_scenario(scenario), options)) as url:
        yield url
