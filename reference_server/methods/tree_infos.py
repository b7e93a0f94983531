"""The `treeInfos` of a §2.10 validity proof: per element, the merkle context a client spends through.

The spec does not show a TreeInfo; the official client's is `{tree, queue, treeType, cpiContext}` with Light's
TreeType number, the same context Photon's V2 answers give an account (`photon_shapes`): an account still in a
batched tree's output queue names that queue and type 3, never the tree as its own queue nor a v1 tree's type.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from csi_conformance.reference_server.ledger import Ledger
from csi_conformance.reference_server.methods.photon_shapes import (
    account_v2_json,
    address_tree_context,
    merkle_context_json,
)
from csi_conformance.reference_server.records import Account

__all__ = ["tree_infos"]


def tree_infos(ledger: Ledger, accounts: Sequence[Account], addresses: int) -> list[dict[str, Any]]:
    """The context of each account proven, then of the address tree once per new address, in the proof's order."""
    infos = [{key: value for key, value in account_v2_json(ledger, account)["merkleContext"].items()
              if key != "nextTreeContext"} for account in accounts]
    address = merkle_context_json(address_tree_context(ledger, ledger.address_tree_key), next_tree=False)
    return infos + [dict(address) for _ in range(addresses)]
