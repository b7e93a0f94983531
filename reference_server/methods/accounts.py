"""Compressed accounts: one by address or hash, balances, and an owner's accounts (§4.2 #1–#5)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from csi_conformance.groundwork.base58 import b58decode
from csi_conformance.reference_server.errors import INVALID_PARAMS, RpcError
from csi_conformance.reference_server.ledger import Ledger
from csi_conformance.reference_server.methods.registry import rpc_method
from csi_conformance.reference_server.methods.shapes import account_json, key_param, lookup_live
from csi_conformance.reference_server.options import ServerOptions
from csi_conformance.reference_server.pagination import (
    ascending_page,
    decode_cursor,
    encode_cursor,
    next_cursor,
    page_limit,
)
from csi_conformance.schema import Method

__all__ = [
    "get_compressed_account",
    "get_compressed_account_balance",
    "get_compressed_accounts_by_owner",
    "get_compressed_balance_by_owner",
    "owner_filter",
]


@rpc_method("getCompressedAccount")
def get_compressed_account(ledger: Ledger, params: Mapping[str, Any], options: ServerOptions, method: Method) -> Any:
    """The live account by address or hash, null when not found (7-N1); exactly one of the two (7-C1)."""
    account = lookup_live(ledger, params)
    return None if account is None else account_json(account)


@rpc_method("getCompressedAccountBalance")
def get_compressed_account_balance(
    ledger: Ledger, params: Mapping[str, Any], options: ServerOptions, method: Method
) -> int:
    """Lamports of the live account by address or hash (getCompressedBalance is its alias).

    An unknown or closed account answers 0 and neither/both members fail, as observed practice
    does; the spec states neither.
    """
    account = lookup_live(ledger, params)
    return 0 if account is None else account.lamports


@rpc_method("getCompressedBalanceByOwner")
def get_compressed_balance_by_owner(
    ledger: Ledger, params: Mapping[str, Any], options: ServerOptions, method: Method
) -> int:
    """Σ lamports of the owner's live accounts; 0 for an owner without any."""
    return ledger.lamports_of_owner(key_param(params, "owner"))


@rpc_method("getCompressedAccountsByOwner")
def get_compressed_accounts_by_owner(
    ledger: Ledger, params: Mapping[str, Any], options: ServerOptions, method: Method
) -> Any:
    """The owner's live accounts by hash ascending, paged; filters and dataSlice as observed.

    Order, cursor (the last hash), `filters` ({memcmp: {offset, bytes}} over `data.data`,
    ANDed, at most the observed maximum) and `dataSlice` (cuts only `data.data`) all follow
    observed practice: the spec leaves the filter shape and the order open.
    """
    limit = page_limit(method, params)
    after = decode_cursor(params.get("cursor"), 32)
    accept = owner_filter(ledger, params.get("filters") or [], method.observed["max_filters"])
    keys = ledger.by_owner.keys(key_param(params, "owner"))
    page = ascending_page(keys, limit=limit, after=after, accept=accept)
    items = [account_json(ledger.accounts[h], params.get("dataSlice")) for h in page]
    return {"items": items, "cursor": next_cursor(page, limit, encode_cursor)}


def owner_filter(ledger: Ledger, filters: list[Mapping[str, Any]], maximum: int) -> Callable[[bytes], bool] | None:
    """A predicate over account hashes: every memcmp matches the account's data bytes."""
    if len(filters) > maximum:
        raise RpcError(INVALID_PARAMS, f"Invalid params: {len(filters)} filters given, at most {maximum} allowed")
    if not filters:
        return None
    tests = [(f["memcmp"]["offset"], b58decode(f["memcmp"]["bytes"])) for f in filters]

    def accept(hash_: bytes) -> bool:
        data = ledger.accounts[hash_].data
        return data is not None and all(data[offset : offset + len(raw)] == raw and offset + len(raw) <= len(data)
                                        for offset, raw in tests)

    return accept
