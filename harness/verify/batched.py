"""Which accounts a run saw sit in batched (v2) state trees.

A batched tree's account is proven against a height-32 tree by the batched circuits (or by index while it
waits in the output queue), whose keys the kit does not have: the checks that verify a validity proof's
Groth16 equation or ask for proofs of every count take their hashes from v1 trees only, and the batched
accounts are judged by what can be judged without those keys. An account is batched when the ledger compared
over says its tree is (`ctx.facts.batched_trees`), or, with no ledger known, when its hash recomputes in the batched
layout only (big-endian leaf index and lamports), or in both (a leaf index and lamports of 0 read the same
either way) with `seq` null, as practice serves a batched tree's account.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from csi_conformance.harness.context import Answer, CheckContext, MemoKey
from csi_conformance.harness.verify.values import bn_value, matching_layout, tree_layouts
from csi_conformance.ledger_crypto import BATCHED_STATE_HEIGHT, fold_path
from csi_conformance.ledger_crypto.merkle import zero_hashes

__all__ = ["EMPTY_BATCHED_ROOT", "Proven", "batched_hashes", "batched_oldest", "batched_sample", "in_tree",
           "provable_hashes", "proven"]

EMPTY_BATCHED_ROOT = int.from_bytes(zero_hashes(BATCHED_STATE_HEIGHT)[-1], "big")
"""The root of a batched state tree no account was appended to: never the root proving an account in it."""
BATCHED_HASHES: MemoKey[frozenset[str]] = MemoKey("batched_hashes")


def _seen(ctx: CheckContext) -> Iterator[dict]:
    keys = ctx.keys
    yield from keys.accounts.values()
    yield from (item.get("account") for item in keys.token_accounts.values())
    yield from (seen.get("account") for seen in keys.touched.values())


def batched_hashes(ctx: CheckContext) -> frozenset[str]:
    """The hashes of the accounts discovery saw in batched trees (worked out once a run)."""
    known = ctx.memo.get(BATCHED_HASHES)
    if known is None:
        found = set()
        for account in _seen(ctx):
            if not isinstance(account, dict):
                continue
            try:
                layouts = tree_layouts(account.get("tree"), ctx.facts.batched_trees)
                if account.get("seq", 0) is None and len(layouts) > 1:
                    layouts = (True, False)  # seq null: a batched tree's, where both layouts give the hash
                if matching_layout(account, layouts):
                    found.add(account["hash"])
            except (KeyError, TypeError, ValueError, OverflowError):
                continue
        known = ctx.memo[BATCHED_HASHES] = frozenset(found)
    return known


def provable_hashes(ctx: CheckContext, hashes: Iterable[str]) -> list[str]:
    """`hashes` less those of batched-tree accounts: what a v1 validity proof can be asked and verified for."""
    batched = batched_hashes(ctx)
    return [h for h in hashes if h not in batched]


def batched_sample(ctx: CheckContext, *, trees: int) -> list[dict]:
    """Live accounts of batched trees to ask proofs of: per tree (at most `trees`), the lowest and the highest
    leaf index discovery saw, since a batch append moves the output queue's oldest leaves first: the first the
    likeliest in the tree, the last the likeliest still queued."""
    closed = set(ctx.keys["closed_hashes"])
    batched = batched_hashes(ctx)
    per_tree: dict[str, list[dict]] = {}
    for account in _seen(ctx):
        if (isinstance(account, dict) and account.get("hash") in batched and account["hash"] not in closed
                and type(account.get("leafIndex")) is int and isinstance(account.get("tree"), str)):
            per_tree.setdefault(account["tree"], []).append(account)
    sample: list[dict] = []
    for accounts in list(per_tree.values())[:trees]:
        ordered = sorted({a["hash"]: a for a in accounts}.values(), key=lambda a: a["leafIndex"])
        sample += [ordered[0]] + ([ordered[-1]] if len(ordered) > 1 else [])
    return sample


def batched_oldest(ctx: CheckContext) -> list[str]:
    """Hashes of the live batched accounts discovery saw, oldest leaf first in each tree (a batch append moves an
    output queue's oldest leaves into the tree first: the likeliest to be provable by root)."""
    closed, batched = set(ctx.keys["closed_hashes"]), batched_hashes(ctx)
    found = {account["hash"]: account for account in _seen(ctx)
             if isinstance(account, dict) and account.get("hash") in batched and account["hash"] not in closed
             and type(account.get("leafIndex")) is int}
    return [h for h, _ in sorted(found.items(), key=lambda item: (item[1]["leafIndex"], item[0]))]


@dataclass(frozen=True)
class Proven:
    """How a one-account getValidityProof answer proves the account: `refused`, `by index` (§2.10's
    `proveByIndices`) or `by root` (the wire form has no proveByIndices: every element there names a root)."""

    how: str
    root: int | None = None
    root_index: Any = None
    leaf: int | None = None
    leaf_index: Any = None
    tree: Any = None
    form: str = "wire"
    """`wire` (merkleTrees) or `spec-2.10` (treeInfos, proveByIndices)."""


def proven(answer: Answer) -> Proven | None:
    """What a one-account proof answer says; None when it cannot be read (the schema checks report it)."""
    if answer.error is not None:
        return Proven("refused")
    value = answer.value if answer.has_result else None
    if not isinstance(value, dict):
        return None
    lists = {name: value.get(name) for name in ("roots", "rootIndices", "leaves", "leafIndices")}
    if any(not isinstance(items, list) or len(items) != 1 for items in lists.values()):
        return None
    by_index, form = value.get("proveByIndices"), "spec-2.10" if "treeInfos" in value else "wire"
    trees = value.get("merkleTrees") or value.get("treeInfos")
    tree = trees[0] if isinstance(trees, list) and len(trees) == 1 else None
    tree = (tree.get("tree") or tree.get("merkleTree")) if isinstance(tree, dict) else tree
    how = "by index" if isinstance(by_index, list) and by_index[:1] == [True] else "by root"
    return Proven(how, bn_value(lists["roots"][0]), lists["rootIndices"][0], bn_value(lists["leaves"][0]),
                  lists["leafIndices"][0], tree, form)


def in_tree(proof: Any) -> bool | None:
    """Where an account proof (getCompressedAccountProofV2's value) puts its account: True when its path folds the
    account's hash at its leaf index to the root (appended), False when it folds an empty leaf there (the account
    still waits in the output queue, as practice proves such a leaf), None when neither or unreadable."""
    if not isinstance(proof, dict) or not isinstance(proof.get("proof"), list) \
            or type(proof.get("leafIndex")) is not int:
        return None
    values = [bn_value(node) for node in (proof.get("hash"), proof.get("root"), *proof["proof"])]
    if any(value is None or not 0 <= value < 2**256 for value in values) or not 0 <= proof["leafIndex"] < 2**32:
        return None
    leaf, root, *path = (value.to_bytes(32, "big") for value in values)
    for appended, start in ((True, leaf), (False, bytes(32))):
        try:
            if fold_path(start, proof["leafIndex"], path) == root:
                return appended
        except ValueError:
            return None
    return None
