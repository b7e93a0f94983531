"""Valid params for any method, built from the keys discovery found.

Which discovered key feeds which param is data (`KEY_FOR_PARAM`, `TOKEN_OWNER_METHODS`); the
param names themselves come from the contract.
"""

from __future__ import annotations

from typing import Any

from harness.context import CheckContext
from harness.core.failures import Skip
from harness.judging.pages import item_key, items_of, walk_pages
from harness.target import OMIT
from schema import Method

__all__ = ["KEY_FOR_PARAM", "fetch_all", "item_key", "items_of", "key_kind", "sample_params", "sample_params_or_none"]

KEY_FOR_PARAM = {"owner": "owners", "address": "addresses", "hash": "hashes", "delegate": "delegates",
                 "mint": "mints", "signature": "signatures"}
"""Param name -> the kind of discovered key that fills it."""

TOKEN_OWNER_METHODS = frozenset({"getCompressedTokenAccountsByOwner", "getCompressedTokenBalancesByOwner",
                                 "getCompressionSignaturesForTokenOwner"})
"""Methods whose `owner` is a token owner rather than an account's owner program."""

OPTIONAL_FILTERS = frozenset({"mint", "cursor", "limit", "dataSlice", "filters"})


def key_kind(method: Method, param: str) -> str | None:
    """The kind of discovered key that fills `param` of `method` (None for a free value)."""
    if param == "owner" and method.name in TOKEN_OWNER_METHODS:
        return "token_owners"
    return KEY_FOR_PARAM.get(param)


def sample_params(ctx: CheckContext, method: Method, *, pick: int = 0) -> Any:
    """Params a conforming server answers with a result, or `Skip` when no key is known."""
    if method.params_kind == "none":
        return OMIT
    if method.params_kind == "array":
        return [ctx.fresh_pubkey()]
    if method.name == "getValidityProof":
        hashes = ctx.keys["hashes"]
        if not hashes:
            raise Skip("no live account hash discovered")
        return {"hashes": [hashes[pick % len(hashes)]]}
    params: dict[str, Any] = {}
    for name in method.param_names:
        if name in OPTIONAL_FILTERS:
            continue
        kind = key_kind(method, name)
        values = ctx.keys[kind] if kind else []
        if values:
            params[name] = values[pick % len(values)]
        elif name in method.required_params:
            raise Skip(f"no {kind or name} discovered for {method.name}")
        if name in ("address", "hash") and params:
            break  # methods taking address or hash take exactly one
    return params


def sample_params_or_none(ctx: CheckContext, method: Method, *, pick: int = 0) -> Any:
    try:
        return sample_params(ctx, method, pick=pick)
    except Skip:
        return None


def fetch_all(ctx: CheckContext, method: Method, params: dict, *, page: int = 100, max_pages: int = 20) -> list:
    """Every item of a list, following cursors (bounded); `Skip` when the list has no end in reach.

    For comparisons that need the whole list (a sum, a mirror). Checks that can judge a part
    (an item must be there, an item must not) walk with `walk_pages` and compare what they saw.
    """
    walk = walk_pages(ctx, method, params, size=page, max_pages=max_pages)
    if walk.broken is not None:
        raise Skip(f"{method.name} gave no list for {params}")
    if not walk.complete():
        raise Skip(f"{method.name} list longer than {page * max_pages} items")
    return walk.items
