"""The generated requests of the scenario differential, built from the keys discovery found.

Besides a few requests about discovered keys per method (lists in small pages, so they are
walked over several pages), two kinds of requests reach what a plain lookup does not:

- validity proofs of every count the contract accepts (§4.3, §8: 1, 2, 3, 4, 8 hashes; 1 and 2
  new addresses, each with hashes, up to the observed combined maximum), from the live hashes
  discovered and fresh addresses in the scenario's address tree;
- lists narrowed by their optional members (`mint`, `dataSlice`, `filters`) in pages of one, so
  a server that honours them on the first page only answers another merged list.

Values that depend on the scenario (the mint of a key's first item, a memcmp on the first byte of
its first account with data, the key whose list the narrowing changes most) are read from the
reference, which holds the same scenario, never written here.
"""

from __future__ import annotations

import base64
from collections.abc import Callable
from typing import Any

from csi_conformance.groundwork.base58 import b58encode
from csi_conformance.harness.checks.differential.replay import reference_items
from csi_conformance.harness.connection import OMIT
from csi_conformance.harness.context import CheckContext
from csi_conformance.harness.judging.compare import canonical
from csi_conformance.harness.judging.samples import sample_params_or_none
from csi_conformance.harness.verify.batched import provable_hashes
from csi_conformance.schema import Method

__all__ = ["FILTERED_PAGE", "GENERATED_PAGE", "PICKS", "generated_params"]

PICKS = 3
"""Discovered keys asked about per method in generated requests."""
GENERATED_PAGE = 4
"""Page size of generated list requests: small, so every list is walked over a few pages."""
FILTERED_PAGE = 1
"""Page size of the narrowed lists: one item a page, so the narrowing must hold on every page."""
SLICE = {"offset": 1, "length": 2}


def generated_params(ctx: CheckContext, method: Method) -> list[Any]:
    """Params about up to `PICKS` discovered keys, then the method's proofs or narrowed lists."""
    if method.params_kind == "none":
        return [OMIT]
    chosen: dict[str, Any] = {}
    for pick in range(PICKS):
        params = sample_params_or_none(ctx, method, pick=pick)
        if params is None:
            continue
        if method.pagination is not None and method.pagination.cursor_shown and isinstance(params, dict):
            params = {**params, "limit": GENERATED_PAGE}
        chosen.setdefault(canonical(params), params)
    for params in (_proofs(ctx, method) if method.name == "getValidityProof" else _narrowed(ctx, method)):
        chosen.setdefault(canonical(params), params)
    return list(chosen.values())


# -- validity proofs -----------------------------------------------------------------------------
def _proofs(ctx: CheckContext, method: Method) -> list[dict]:
    """Every accepted count of hashes alone, and every accepted count of addresses with hashes."""
    hashes = provable_hashes(ctx, ctx.keys["hashes"])
    if not hashes:
        return []
    hash_counts = [n for n in method.limit_for("hashes").counts if n <= len(hashes)]
    address_counts = method.limit_for("newAddressesWithTrees").counts
    most = method.observed.get("combined_max", {}).get("hashes", 0)
    combined = [n for n in hash_counts if n <= most]
    requests: list[dict] = [{"hashes": hashes[:n]} for n in hash_counts]
    if not combined:
        return requests
    fresh = [ctx.fresh_pubkey() for _ in range(max(address_counts))]
    tree = _address_tree(ctx, method, fresh[0])
    pairs = max(len(combined), len(address_counts))
    for index in range(pairs):
        count, addresses = combined[index % len(combined)], address_counts[index % len(address_counts)]
        requests.append({"hashes": hashes[:count],
                         "newAddressesWithTrees": [{"address": a, "tree": tree} for a in fresh[:addresses]]})
    return requests


def _address_tree(ctx: CheckContext, method: Method, address: str) -> str:
    """The scenario's address tree, as the reference names it in a non-inclusion proof."""
    proofs = ctx.ask_reference("getMultipleNewAddressProofs", [address], id="csi-diff-address-tree").value
    if isinstance(proofs, list) and proofs and isinstance(proofs[0], dict) and isinstance(proofs[0].get("merkleTree"),
                                                                                           str):
        return proofs[0]["merkleTree"]
    return method.observed["default_address_tree"]


# -- narrowed lists ------------------------------------------------------------------------------
Narrowing = tuple[Any, int]
"""A value for an optional list member, and how many of the key's items it changes or leaves out."""


def _mint(items: list) -> Narrowing | None:
    """The mint of the first item: the items of other mints come on later pages, where a server that
    dropped the mint would list them."""
    mints = [str((item.get("tokenData") or item).get("mint")) for item in items if isinstance(item, dict)]
    return (mints[0], sum(mint != mints[0] for mint in mints)) if mints else None


def _data(items: list) -> list[bytes]:
    """The decoded `data.data` of each listed account (empty bytes where there is none)."""
    found = []
    for item in items:
        data = item.get("data") if isinstance(item, dict) else None
        try:
            found.append(base64.b64decode((data or {}).get("data") or "", validate=True))
        except (ValueError, AttributeError):
            found.append(b"")
    return found


def _slice(items: list) -> Narrowing | None:
    changed = sum(1 for raw in _data(items) if raw)
    return (SLICE, changed) if changed else None


def _memcmp(items: list) -> Narrowing | None:
    """A filter on the first data byte of the first account with data (observed `memcmp` form)."""
    data = _data(items)
    first = next((raw[:1] for raw in data if raw), None)
    if first is None:
        return None
    return [{"memcmp": {"offset": 0, "bytes": b58encode(first)}}], sum(not raw.startswith(first) for raw in data)


NARROWING: dict[str, Callable[[list], Narrowing | None]] = {"mint": _mint, "dataSlice": _slice, "filters": _memcmp}
"""Optional list member -> its value, chosen from the reference's whole list for a key."""


def _narrowed(ctx: CheckContext, method: Method) -> list[dict]:
    """Per optional narrowing member the method takes: the key whose list it changes most, narrowed,
    in pages of `FILTERED_PAGE`."""
    members = [name for name in NARROWING if name in method.param_names]
    if method.pagination is None or not method.pagination.cursor_shown or not members:
        return []
    lists = []
    for pick in range(PICKS):
        params = sample_params_or_none(ctx, method, pick=pick)
        if isinstance(params, dict):
            lists.append((params, reference_items(ctx, method, params)))
    requests = []
    for name in members:
        scored = [(narrowing[1], len(items), -index, params, narrowing[0])
                  for index, (params, items) in enumerate(lists) if (narrowing := NARROWING[name](items))]
        if scored:
            *_, params, value = max(scored, key=lambda entry: entry[:3])
            requests.append({**params, name: value, "limit": FILTERED_PAGE})
    return requests
