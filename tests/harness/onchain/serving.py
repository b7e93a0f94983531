"""The reference over a chain's blocks, served on loopback with one broken variant's fault.

The same dispatcher as `csi serve --transactions`, with the ledger it serves within reach of a
variant (`LedgerDispatch.ledger`): an indexer that never saw the spends is a fault of its state,
not of one answer (tests/harness/variants_onchain.py).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from csi_conformance.reference_server.app import create_app
from csi_conformance.reference_server.ledger import Ledger
from csi_conformance.reference_server.methods import call
from csi_conformance.reference_server.options import ServerOptions
from csi_conformance.reference_server.serve import running_server
from csi_conformance.schema import Contract

from ..broken import Variant


class LedgerDispatch:
    """The reference's methods over one ledger, as a variant's `real` dispatcher."""

    def __init__(self, ledger: Ledger, options: ServerOptions, contract: Contract) -> None:
        self.ledger, self.options, self.contract = ledger, options, contract

    def __call__(self, method: str, params: Any) -> Any:
        return call(self.ledger, method, params, self.options, self.contract)


@contextlib.contextmanager
def serving_chain(ledger: Ledger, variant: Variant | None, options: ServerOptions) -> Iterator[str]:
    """A reference over `ledger` with `variant`'s fault (none: the clean reference); yields its URL."""
    contract = Contract.default()
    real = LedgerDispatch(ledger, options, contract)
    dispatch = real
    if variant is not None and variant.dispatch is not None:
        dispatch = lambda method, params: variant.dispatch(real, method, params)  # noqa: E731
    with running_server(create_app(dispatch, options, contract=contract)) as url:
        yield url
