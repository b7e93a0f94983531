"""Compressed token accounts and balances (§4.2 #6–#9)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from csi_conformance.reference_server.ledger import Ledger
from csi_conformance.reference_server.methods.registry import rpc_method
from csi_conformance.reference_server.methods.shapes import account_json, key_param, lookup_live, token_json
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
    "get_compressed_token_account_balance",
    "get_compressed_token_accounts_by_delegate",
    "get_compressed_token_accounts_by_owner",
    "get_compressed_token_balances_by_owner",
]

_LOW, _HIGH = bytes(32), b"\xff" * 32


@rpc_method("getCompressedTokenAccountsByOwner")
def get_compressed_token_accounts_by_owner(
    ledger: Ledger, params: Mapping[str, Any], options: ServerOptions, method: Method
) -> Any:
    """The token owner's live token accounts, optionally of one mint (4.2-N4), paged."""
    keys = ledger.tokens_by_owner.keys(key_param(params, "owner"))
    return _token_page(ledger, keys, params, method)


@rpc_method("getCompressedTokenAccountsByDelegate")
def get_compressed_token_accounts_by_delegate(
    ledger: Ledger, params: Mapping[str, Any], options: ServerOptions, method: Method
) -> Any:
    """Live token accounts whose delegate is `delegate` (4.2-N5), optionally of one mint, paged."""
    keys = ledger.tokens_by_delegate.keys(key_param(params, "delegate"))
    return _token_page(ledger, keys, params, method)


def _token_page(ledger: Ledger, keys: Sequence[bytes], params: Mapping[str, Any], method: Method) -> Any:
    """A page of mint ‖ hash keys, ascending; cursor = base58(mint ‖ hash) of the last (observed)."""
    limit = page_limit(method, params)
    after = decode_cursor(params.get("cursor"), 64)
    mint = key_param(params, "mint")
    low, high = (None, None) if mint is None else (mint + _LOW, mint + _HIGH)
    page = ascending_page(keys, limit=limit, after=after, low=low, high=high)
    items = []
    for key in page:
        account = ledger.accounts[key[32:]]
        items.append({"account": account_json(account), "tokenData": token_json(account.token)})
    return {"items": items, "cursor": next_cursor(page, limit, encode_cursor)}


@rpc_method("getCompressedTokenBalancesByOwner")
def get_compressed_token_balances_by_owner(
    ledger: Ledger, params: Mapping[str, Any], options: ServerOptions, method: Method
) -> Any:
    """Σ amounts per mint of the owner's live token accounts, by mint ascending, paged.

    The member is `token_balances` (snake_case) as §4.2 #8 and observed practice write it;
    order and cursor (the last mint) follow observed practice.
    """
    limit = page_limit(method, params)
    after = decode_cursor(params.get("cursor"), 32)
    balances = ledger.token_balances(key_param(params, "owner"))
    mint = key_param(params, "mint")
    mints = sorted(balances) if mint is None else [m for m in balances if m == mint]
    page = ascending_page(mints, limit=limit, after=after)
    items = [{"balance": balances[m], "mint": encode_cursor(m)} for m in page]
    return {"token_balances": items, "cursor": next_cursor(page, limit, encode_cursor)}


@rpc_method("getCompressedTokenAccountBalance")
def get_compressed_token_account_balance(
    ledger: Ledger, params: Mapping[str, Any], options: ServerOptions, method: Method
) -> Any:
    """`{amount}` of the live token account by address or hash.

    As observed practice (the spec is silent): an unknown, closed or non-token account answers
    `{amount: 0}`, and neither/both of address and hash fail like getCompressedAccount.
    """
    account = lookup_live(ledger, params)
    return {"amount": 0 if account is None or account.token is None else account.token.amount}
