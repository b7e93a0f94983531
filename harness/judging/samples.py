"""Valid params for any method, built from the keys discovery found.

Which kind of discovered key fills which member, and which members a request names, are the contract's
(`Method.keys`, `Method.asked_by`); this module only picks among the keys found.
"""

from __future__ import annotations

from typing import Any

from csi_conformance.groundwork.jsonio import dumps
from csi_conformance.harness.connection import OMIT
from csi_conformance.harness.context import CheckContext
from csi_conformance.harness.core.failures import Skip
from csi_conformance.harness.generate import ARRAY_ITEMS, array_item, member_kind
from csi_conformance.harness.judging.answers import defer_refused
from csi_conformance.harness.judging.pages import item_key, items_of, walk_pages
from csi_conformance.schema import Method

__all__ = ["fetch_all", "item_key", "items_of", "sample_params", "sample_params_or_none"]


def sample_params(ctx: CheckContext, method: Method, *, pick: int = 0) -> Any:
    """Params a conforming server answers with a result, or `Skip` when no key is known.

    The first way of asking (`Method.asked_by`) whose keys were all discovered, each member the `pick`-th key of
    its kind (a list member: a list of that one key); optional members are left out.
    """
    if method.params_kind == "none":
        return OMIT
    if method.params_kind == "array":
        return [_array_item(ctx, method, pick)]
    missing: list[str] = []
    for members in method.asked_by:
        kinds = {name: member_kind(method, name) for name in members}
        absent = [kind or name for name, kind in kinds.items() if not (kind and ctx.keys.get(kind))]
        if not absent:
            return {name: _one(method, name, _pick(ctx.keys[kind], pick)) for name, kind in kinds.items()}
        missing += absent
    if missing:
        raise Skip(f"no {' or '.join(dict.fromkeys(missing))} discovered for {method.name}")
    return {}


def _pick(keys: list[str], pick: int) -> str:
    return keys[pick % len(keys)]


def _one(method: Method, name: str, key: str) -> Any:
    return [key] if method.takes_list(name) else key


def _array_item(ctx: CheckContext, method: Method, pick: int) -> Any:
    """One item of a list-valued params: a discovered key of its items' kind (a new address with a known tree
    for `AddressWithTree`), else a fresh key, as the spec's getMultipleNewAddressProofs takes."""
    item = array_item(method)
    found = ctx.keys.get(ARRAY_ITEMS.get(item or "", ""))
    if not found:
        return ctx.fresh_pubkey()
    if item == "AddressWithTree":
        return {"address": ctx.fresh_pubkey(), "tree": _pick(found, pick)}
    return _pick(found, pick)


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
        defer_refused(ctx, walk.broken)
        raise Skip(f"{method.name} gave no list for {dumps(params)}")
    if not walk.complete():
        raise Skip(f"{method.name} list longer than {page * max_pages} items")
    return walk.items
