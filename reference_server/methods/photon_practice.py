"""Where the contract of the API clients call today (`photon-366a15b`) answers a method of the 19 otherwise than
the spec's contract: the reference serves Photon's practice when it serves that contract, and the spec's
reading when it serves API 0.50.0.

- An owner's accounts come in Photon's order, leaf index then hash (`ORDER BY accounts.leaf_index,
  accounts.hash`, `src/api/method/get_compressed_accounts_by_owner/common.rs`). Photon's cursor is the last
  item's hash, and it pages by `hash >` that cursor, which in this order skips and repeats accounts; the
  reference keeps the cursor's form (the last item's hash) and reads it as the place of that account in the
  order, (its leaf index, its hash), so a walk gives every account once.
- A new address at or above the address tree's highest element is answered with a range, as Photon answers
  it (it checks only that the address is 32 bytes: `get_multiple_new_address_proofs.rs`), where the spec's
  contract refuses it (`proofs.range_proof`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from csi_conformance.reference_server.errors import INVALID_PARAMS, RpcError
from csi_conformance.reference_server.ledger import Ledger
from csi_conformance.reference_server.methods.accounts import owner_filter
from csi_conformance.reference_server.methods.proofs import new_address_proofs
from csi_conformance.reference_server.methods.registry import rpc_method
from csi_conformance.reference_server.methods.shapes import account_json, key_param
from csi_conformance.reference_server.options import ServerOptions
from csi_conformance.reference_server.pagination import (
    ascending_page,
    decode_cursor,
    encode_cursor,
    next_cursor,
    page_limit,
)
from csi_conformance.schema import Method

__all__ = ["PHOTON_API", "accounts_by_leaf_index"]

PHOTON_API = "photon-366a15b"
"""The contract whose practice this module serves."""

Place = tuple[int, bytes]
"""An account's place in Photon's owner order: (leaf index, hash)."""


@rpc_method("getCompressedAccountsByOwner", api=PHOTON_API)
def get_compressed_accounts_by_owner_photon(ledger: Ledger, params: Mapping[str, Any], options: ServerOptions,
                                            method: Method) -> Any:
    """The owner's live accounts by leaf index then hash, paged (filters and dataSlice as under the spec's)."""
    return accounts_by_leaf_index(ledger, params, method)


def accounts_by_leaf_index(ledger: Ledger, params: Mapping[str, Any], method: Method) -> dict[str, Any]:
    """A page of the owner's live accounts in Photon's order; the cursor is the last item's hash."""
    limit = page_limit(method, params)
    after = _place_of_cursor(ledger, params.get("cursor"))
    accept = owner_filter(ledger, params.get("filters") or [], method.observed["max_filters"])
    places = ledger.by_owner_leaf.keys(key_param(params, "owner"))
    page = ascending_page(places, limit=limit, after=after,
                          accept=None if accept is None else (lambda place: accept(place[1])))
    items = [account_json(ledger.accounts[hash_], params.get("dataSlice")) for _, hash_ in page]
    return {"items": items, "cursor": next_cursor(page, limit, lambda place: encode_cursor(place[1]))}


def _place_of_cursor(ledger: Ledger, text: str | None) -> Place | None:
    """The place a cursor (an account's hash) names; a hash of no account this ledger indexed has no place in
    the order, and is refused as a malformed cursor is (the ledger keeps closed accounts too, so every cursor
    it handed out still names one)."""
    hash_ = decode_cursor(text, 32)
    if hash_ is None:
        return None
    account = ledger.account(hash_)
    if account is None:
        raise RpcError(INVALID_PARAMS, f"Invalid params: cursor {text} names no account: the order is by leaf "
                                       "index, and a cursor is the hash of the last account of a page")
    return account.leaf_index, hash_


@rpc_method("getMultipleNewAddressProofs", api=PHOTON_API)
def get_multiple_new_address_proofs_photon(ledger: Ledger, params: Sequence[str], options: ServerOptions,
                                           method: Method) -> Any:
    """getMultipleNewAddressProofs, an address at or above the highest element answered as Photon answers it."""
    return new_address_proofs(ledger, params, method, beyond=True)
