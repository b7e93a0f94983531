"""The merkle context an account is in (its tree, the queue in front of it, the tree's type), as the run knows
it, and a context a target gave judged against it.

Two answers name that context: an AccountV2's `merkleContext` (v2.merkle-context) and each element of a §2.10
validity proof's `treeInfos` (crypto.validity-tree-infos). A client builds its spend from either: a wrong queue,
or a batched tree typed as a v1 one, sends the spend to the wrong account or asks for a proof by index it
cannot make. The truth is the reference's over the same ledger when the run has one (tree, queue, type, and the
CPI context it names); else the tree of the account's V1 answer and the type of that tree's kind, as far as the
run can tell (the ledger's batched trees, the target's getQueueInfo, the layout the account's hash recomputes
in). Some rules need no truth: a state tree's queue is another account than the tree, one tree has one queue,
and no queue stands in front of two trees.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from csi_conformance.harness.context import Answer, CheckContext
from csi_conformance.harness.core.failures import CheckFailure
from csi_conformance.harness.verify.batched import batched_hashes
from csi_conformance.harness.verify.values import matching_layout

__all__ = ["CONTEXT", "TREE_TYPES", "Given", "Truth", "batched_trees", "expected_context", "judge_contexts",
           "live_accounts", "reference_items"]

CONTEXT = ("tree", "queue", "treeType", "cpiContext")
TREE_TYPES = {"state": 1, "batched": 3}
"""Light's TreeType of an account's state tree (photon-R1): a v1 tree's 1, a batched tree's 3."""
TREE_TYPE_NAMES = {1: "StateV1", 2: "AddressV1", 3: "StateV2", 4: "AddressV2"}
"""The same TreeType by the name Light's clients give it: a context may write the name for the number."""
PER_REQUEST = 20
UNKNOWN_QUEUE = "11111111111111111111111111111111"
"""`Pubkey::default()`: what Photon names as the queue of a tree whose metadata it lacks; the queue of no tree."""


def _seen(ctx: CheckContext) -> Iterator[Any]:
    yield from ctx.keys.accounts.values()
    yield from (item.get("account") for item in ctx.keys.token_accounts.values())
    yield from (seen.get("account") for seen in ctx.keys.touched.values())


def live_accounts(ctx: CheckContext) -> dict[str, dict]:
    """The V1 form of every live account discovery saw, by hash (its `tree` is the one the account is in)."""
    closed = set(ctx.keys["closed_hashes"])
    found: dict[str, dict] = {}
    for account in _seen(ctx):
        if isinstance(account, dict) and isinstance(account.get("hash"), str) and account["hash"] not in closed:
            found.setdefault(account["hash"], account)
    return found


def batched_trees(ctx: CheckContext) -> set[str] | None:
    """The batched state trees of the run: the ledger's, else those the target's getQueueInfo names (a contract
    with it: none named is no batched tree); None when the run cannot tell."""
    if ctx.facts.batched_trees is None and "getQueueInfo" not in ctx.contract.methods:
        return None
    return set(ctx.facts.batched_trees or ()) | set(ctx.keys.get("batched_trees"))


def _kind(ctx: CheckContext, account: dict) -> str | None:
    """`batched` or `state` for the account's tree, None when the run cannot tell: a tree the ledger or the target
    names batched, a hash that recomputes in the batched layout only; a hash that recomputes as a v1 tree's."""
    trees = batched_trees(ctx)
    if account.get("hash") in batched_hashes(ctx) or (trees is not None and account.get("tree") in trees):
        return "batched"
    if trees is not None:
        return "state"
    try:
        return "state" if matching_layout(account, (False,)) is False else None
    except (KeyError, TypeError, ValueError, OverflowError):
        return None


def reference_items(ctx: CheckContext, hashes: list[str], name: str) -> dict[str, dict]:
    """The reference's AccountV2 of each hash, when the run has a reference over the same ledger that serves
    getMultipleCompressedAccountsV2 (none answered is none known)."""
    if not ctx.has_reference:
        return {}
    found = {}
    for start in range(0, len(hashes), PER_REQUEST):
        truth = ctx.ask_reference("getMultipleCompressedAccountsV2", {"hashes": hashes[start:start + PER_REQUEST]},
                                  id=f"csi-{name}-{start}")
        items = truth.value.get("items") if isinstance(truth.value, dict) else None
        for item in items if isinstance(items, list) else []:
            if isinstance(item, dict) and isinstance(item.get("hash"), str):
                found[item["hash"]] = item
    return found


@dataclass(frozen=True)
class Truth:
    """What one account's context must hold (member -> value) and where the run learnt it."""

    values: dict[str, Any] = field(default_factory=dict)
    source: str = "its V1 answer"


def expected_context(ctx: CheckContext, v1: dict | None, reference: dict | None) -> Truth:
    """The reference's (tree, queue, treeType, and cpiContext where it names one), else the tree of the account's
    V1 answer and the type of that tree's kind where the run can tell it."""
    context = reference.get("merkleContext") if isinstance(reference, dict) else None
    if isinstance(context, dict):
        values = {name: context.get(name) for name in CONTEXT if name != "cpiContext" or context.get(name)}
        return Truth(values, "the reference over the same ledger")
    if v1 is None or not isinstance(v1.get("tree"), str):
        return Truth()
    kind = _kind(ctx, v1)
    return Truth({"tree": v1["tree"], **({"treeType": TREE_TYPES[kind]} if kind else {})})


def _same(name: str, expected: Any, received: Any) -> bool:
    """A tree type may be written by its TreeType name; every other member is the value itself."""
    return received == expected or (name == "treeType" and received == TREE_TYPE_NAMES.get(expected, expected))


@dataclass(frozen=True)
class Given:
    """A context as the target gave it for one account, the answer it came in and the JSON path of the context."""

    hash: str
    context: dict
    answer: Answer
    at: str


def judge_contexts(ctx: CheckContext, given: Iterable[Given], truths: dict[str, Truth], *, label: str) -> None:
    """Defer a failure for every member of a context that is not the account's, and for every queue that is the
    tree itself, a second queue of one tree or the queue of another tree. `label` names the context's member."""
    given = list(given)
    queues_of: dict[str, set[str]] = {}
    for item in given:
        queues_of.setdefault(str(item.context.get("tree")), set()).add(str(item.context.get("queue")))
    for item in given:
        truth = truths.get(item.hash, Truth())
        for name, value in truth.values.items():
            if not _same(name, value, item.context.get(name)):
                ctx.defer(CheckFailure(f"{label}.{name} is not the account's", answer=item.answer,
                                       expected=f"{value} ({truth.source} for account {item.hash})",
                                       received=item.context.get(name), path=f"{item.at}.{name}"))
        _judge_queue(ctx, item, queues_of, label)


def _judge_queue(ctx: CheckContext, item: Given, queues_of: dict[str, set[str]], label: str) -> None:
    tree, queue = item.context.get("tree"), item.context.get("queue")
    if not isinstance(queue, str) or queue == tree:
        ctx.defer(CheckFailure(f"{label}.queue is not the tree's queue", answer=item.answer, path=f"{item.at}.queue",
                               expected=f"the queue in front of tree {tree} (a state tree's queue is another "
                                        f"account: its output queue or nullifier queue), for account {item.hash}",
                               received=queue))
        return
    others = sorted(t for t, queues in queues_of.items() if queue in queues and t != str(tree)
                    and queue != UNKNOWN_QUEUE)
    if len(queues_of.get(str(tree), ())) > 1 or others:
        ctx.defer(CheckFailure(f"{label}.queue of another tree", answer=item.answer, path=f"{item.at}.queue",
                               expected=f"the one queue of tree {tree}, no other tree's",
                               received={"queue": queue, "queues given for this tree": sorted(queues_of[str(tree)]),
                                         "also given as the queue of": others}))
