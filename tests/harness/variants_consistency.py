"""Broken variants caught by the `consistency` checks: one fault each, as a live indexer could show it.

Faults on later pages only (`cursor` given) are the ones a single-page read misses: the checks
walk filtered and sliced lists over several small pages to catch them.
"""

from __future__ import annotations

import copy
import itertools
from typing import Any

from .broken import Dispatch, Variant, _on

__all__ = ["VARIANTS"]


def _later_pages_drop(member: str, *methods: str):
    """A dispatch that honours `member` on a list's first page only."""

    def dispatch(real: Dispatch, method: str, params: Any) -> Any:
        if method in methods and isinstance(params, dict) and "cursor" in params and member in params:
            params = {k: v for k, v in params.items() if k != member}
        return real(method, params)

    return dispatch


def _mint_ignored(method_name: str):
    def dispatch(real: Dispatch, method: str, params: Any) -> Any:
        if method == method_name and isinstance(params, dict):
            params = {k: v for k, v in params.items() if k != "mint"}
        return real(method, params)

    return dispatch


def _slice_empty(real: Dispatch, method: str, params: Any) -> Any:
    result = real(method, params)
    if isinstance(params, dict) and "dataSlice" in params:
        result = {**result, "value": {"items": [], "cursor": None}}
    return result


def _closed_listed(real: Dispatch, method: str, params: Any) -> Any:
    """Owner lists that also show the owner's closed accounts, on their first page."""
    result = real(method, params)
    if method != "getCompressedAccountsByOwner" or not isinstance(params, dict) or "cursor" in params:
        return result
    closed = []
    for item in real("getLatestCompressionSignatures", {"limit": 1000})["value"]["items"]:
        info = real("getTransactionWithCompressionInfo", {"signature": item["signature"]})
        closed += [entry["account"] for entry in (info or {}).get("compressionInfo", {}).get("closedAccounts", [])
                   if entry["account"]["owner"] == params.get("owner")]
    return {**result, "value": {**result["value"], "items": result["value"]["items"] + closed}}


def _drop_first_unfiltered(params: Any, result: Any) -> Any:
    if "mint" not in params:
        result["value"]["items"] = result["value"]["items"][1:]
    return result


def _other_account_by_address(real: Dispatch, method: str, params: Any) -> Any:
    result = real(method, params)
    if method == "getCompressedAccount" and isinstance(params, dict) and params.get("address") and result["value"]:
        result = copy.deepcopy(result)
        result["value"]["lamports"] += 1
    return result


def _hash_lookup_null(real: Dispatch, method: str, params: Any) -> Any:
    """Lookups by hash lose every account (by address still finds them): not a target that moved."""
    result = real(method, params)
    if method == "getCompressedAccount" and isinstance(params, dict) and params.get("hash"):
        result = {**result, "value": None}
    return result


def _info_for_anything(params: Any, result: Any) -> Any:
    return result or {"compressionInfo": {"closedAccounts": [], "openedAccounts": []}, "transaction": {}}


def _oldest_first(params: Any, result: Any) -> Any:
    result["value"]["items"] = result["value"]["items"][::-1]
    return result


def _amount_plus_one(params: Any, result: Any) -> Any:
    result["value"]["amount"] += 1
    return result


def _balance_plus_one(params: Any, result: Any) -> Any:
    return {**result, "value": result["value"] + 1}


def _slot_backwards():
    count = itertools.count()

    def dispatch(real: Dispatch, method: str, params: Any) -> Any:
        result = real(method, params)
        if isinstance(result, dict) and isinstance(result.get("context"), dict) and next(count) % 2:
            result = {**result, "context": {"slot": result["context"]["slot"] - 10}}
        return result

    return dispatch


TOKEN_LISTS = ("getCompressedTokenAccountsByOwner", "getCompressedTokenAccountsByDelegate")

VARIANTS = [
    Variant("account-balance-plus-one", "consistency", "consistency.account-balance",
            dispatch=_on("getCompressedAccountBalance", _balance_plus_one), clauses=("4.2-M2",)),
    Variant("closed-accounts-listed", "consistency", "consistency.closed-not-listed", dispatch=_closed_listed,
            clauses=("3.2-R2",)),
    Variant("delegate-missing-account", "consistency", "consistency.delegate",
            dispatch=_on("getCompressedTokenAccountsByDelegate", _drop_first_unfiltered), clauses=("4.2-N5",)),
    # proves no clause: what a filter means is observed practice (2.11-R4: its shape is not shown)
    Variant("filters-dropped-on-later-pages", "consistency", "consistency.filters",
            dispatch=_later_pages_drop("filters", "getCompressedAccountsByOwner")),
    Variant("address-lookup-differs", "consistency", "consistency.hash-address", dispatch=_other_account_by_address,
            clauses=("4.2-M1",)),
    Variant("hash-lookup-null", "consistency", "consistency.hash-address", dispatch=_hash_lookup_null,
            clauses=("4.2-M1",)),
    Variant("mint-dropped-on-later-pages", "consistency", "consistency.mint-filter",
            dispatch=_later_pages_drop("mint", *TOKEN_LISTS), clauses=("4.2-N4",)),
    Variant("delegate-mint-ignored", "consistency", "consistency.mint-filter",
            dispatch=_mint_ignored("getCompressedTokenAccountsByDelegate"), clauses=("4.2-N4",)),
    Variant("slice-dropped-on-later-pages", "consistency", "consistency.data-slice",
            dispatch=_later_pages_drop("dataSlice", "getCompressedAccountsByOwner"), clauses=("4.2-N2",)),
    Variant("sliced-list-empty", "consistency", "consistency.data-slice", dispatch=_slice_empty, clauses=("4.2-N2",)),
    # proves no clause: caught as observed practice: the spec states no order of the latest signatures
    Variant("latest-oldest-first", "consistency", "consistency.newest-first",
            dispatch=_on("getLatestCompressionSignatures", _oldest_first)),
    Variant("compression-info-for-failed", "consistency", "consistency.non-compression-transaction",
            dispatch=_on("getTransactionWithCompressionInfo", _info_for_anything), clauses=("4.2-N7", "7-N2")),
    Variant("token-account-amount-plus-one", "consistency", "consistency.token-account-balance",
            dispatch=_on("getCompressedTokenAccountBalance", _amount_plus_one), clauses=("4.2-M9",)),
    # proves no clause: caught as observed practice: the spec does not say slots never go back
    Variant("context-slot-backwards", "consistency", "consistency.context-slot", dispatch=_slot_backwards()),
]
