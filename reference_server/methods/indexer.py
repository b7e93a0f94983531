"""The indexer's own health and progress (§4.2 #18, #19)."""

from __future__ import annotations

from typing import Any

from csi_conformance.reference_server.errors import SERVER_ERROR, RpcError
from csi_conformance.reference_server.ledger import Ledger
from csi_conformance.reference_server.methods.registry import rpc_method
from csi_conformance.reference_server.options import ServerOptions
from csi_conformance.schema import Method

__all__ = ["get_indexer_health", "get_indexer_slot"]


@rpc_method("getIndexerHealth")
def get_indexer_health(ledger: Ledger, params: Any, options: ServerOptions, method: Method) -> str:
    """`ok`, or an error once the chain tip is more than `max_stale_slots` ahead (7-C3).

    The message is observed practice's (`Node is behind N slots`, -32000); the spec shows none.
    """
    behind = ledger.tip_slot - ledger.indexed_slot
    if behind > options.max_stale_slots:
        raise RpcError(SERVER_ERROR, f"Node is behind {behind} slots")
    return "ok"


@rpc_method("getIndexerSlot")
def get_indexer_slot(ledger: Ledger, params: Any, options: ServerOptions, method: Method) -> int:
    """The slot of the last block indexed, a bare integer."""
    return ledger.indexed_slot
