"""Signatures of transactions that touched compressed state (§4.2 #11–#15).

Every list is newest first: slot descending, then signature descending, with the cursor
base58(slot u64 LE ‖ signature), as observed practice pages them (the spec shows no order).
Failed transactions change nothing, so only getLatestNonVotingSignatures lists them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from csi_conformance.groundwork.base58 import b58encode
from csi_conformance.reference_server.ledger import Ledger
from csi_conformance.reference_server.methods.registry import rpc_method
from csi_conformance.reference_server.methods.shapes import key_param
from csi_conformance.reference_server.options import ServerOptions
from csi_conformance.reference_server.pagination import (
    SignatureKey,
    decode_signature_cursor,
    descending_page,
    encode_signature_cursor,
    next_cursor,
    page_limit,
)
from csi_conformance.schema import Method

__all__ = [
    "get_compression_signatures_for_address",
    "get_compression_signatures_for_owner",
    "get_compression_signatures_for_token_owner",
    "get_latest_compression_signatures",
    "get_latest_non_voting_signatures",
]


def _page(keys: Sequence[SignatureKey], params: Mapping[str, Any], method: Method) -> tuple[list[SignatureKey], int]:
    """The page of keys asked for, newest first, and the limit it was cut at."""
    limit = page_limit(method, params)
    return descending_page(keys, limit=limit, before=decode_signature_cursor(params.get("cursor"))), limit


def _listing(ledger: Ledger, keys: Sequence[SignatureKey], params: Mapping[str, Any], method: Method) -> Any:
    page, limit = _page(keys, params, method)
    items = [_item(ledger, key) for key in page]
    return {"items": items, "cursor": next_cursor(page, limit, encode_signature_cursor)}


def _item(ledger: Ledger, key: SignatureKey) -> dict[str, Any]:
    """A SignatureItem (§2.8): signature, slot and blockTime, never `error`."""
    tx = ledger.transactions[key[1]]
    return {"signature": b58encode(tx.signature), "slot": tx.slot, "blockTime": tx.block_time}


@rpc_method("getCompressionSignaturesForAddress")
def get_compression_signatures_for_address(
    ledger: Ledger, params: Mapping[str, Any], options: ServerOptions, method: Method
) -> Any:
    """Transactions that opened or closed an account with this address (any account holding it)."""
    keys = ledger.signatures_by_address.keys(key_param(params, "address"))
    return _listing(ledger, keys, params, method)


@rpc_method("getCompressionSignaturesForOwner")
def get_compression_signatures_for_owner(
    ledger: Ledger, params: Mapping[str, Any], options: ServerOptions, method: Method
) -> Any:
    """Transactions that opened or closed accounts whose owner (program) is `owner`."""
    keys = ledger.signatures_by_owner.keys(key_param(params, "owner"))
    return _listing(ledger, keys, params, method)


@rpc_method("getCompressionSignaturesForTokenOwner")
def get_compression_signatures_for_token_owner(
    ledger: Ledger, params: Mapping[str, Any], options: ServerOptions, method: Method
) -> Any:
    """Transactions that opened or closed token accounts whose token owner is `owner`."""
    keys = ledger.signatures_by_token_owner.keys(key_param(params, "owner"))
    return _listing(ledger, keys, params, method)


@rpc_method("getLatestCompressionSignatures")
def get_latest_compression_signatures(
    ledger: Ledger, params: Mapping[str, Any], options: ServerOptions, method: Method
) -> Any:
    """Every successful transaction, newest first."""
    keys = ledger.latest_signatures(include_failed=False)
    return _listing(ledger, keys, params, method)


@rpc_method("getLatestNonVotingSignatures")
def get_latest_non_voting_signatures(
    ledger: Ledger, params: Mapping[str, Any], options: ServerOptions, method: Method
) -> Any:
    """Every transaction, failed ones too, each with `error` (text or null), newest first.

    As observed practice: the answer has no cursor (the method's example shows none), yet
    `cursor` and `limit` are accepted, so a client can still page with the last item's key.
    """
    page, _ = _page(ledger.latest_signatures(include_failed=True), params, method)
    items = []
    for key in page:
        item = _item(ledger, key)
        item["error"] = ledger.transactions[key[1]].error
        items.append(item)
    return {"items": items}
