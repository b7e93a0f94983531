"""Family `v2`: the answers of the API clients call today (`--api photon-366a15b`) judged for what they mean.

A V2 account carries the merkle context it is in (tree, queue, tree type) and whether it is proven by index
(still in its tree's output queue); a V2 validity proof gives each account a root index in its own tree's root
history. Shape is the schema checks' work; these judge the values: against the V1 answer of the same account
(its `tree`), the reference over the same ledger when the run has one, and the target's own answers taken
one account at a time (a combined proof must give each account the root index it gets alone: Photon's #342
took root indices with another tree's history length). The V2 lists' cursors are walked by the pagination
family, generated from the contract as the V1 ones are. A run whose contract has no V2 method finds them N/A.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations
from typing import Any

from csi_conformance.harness.context import Answer, CheckContext, MemoKey
from csi_conformance.harness.core.failures import CheckFailure, NotApplicable, Skip
from csi_conformance.harness.core.model import Basis
from csi_conformance.harness.core.paths import member, result_value
from csi_conformance.harness.core.registry import check
from csi_conformance.harness.judging.refusals import formal_params

ACCOUNTS_ASKED = 40
"""Live accounts whose V2 form is asked at most (in requests of `PER_REQUEST`)."""
PER_REQUEST = 20
PROOF_TREES = 3
"""Trees a combined validity proof takes one account of, at most (the prover's counts allow 1 to 4)."""
METHOD_NOT_FOUND = -32601
CONTEXT = ("tree", "queue", "treeType")
V1_TREE_TYPES = {"state": 1, "batched": 3}
"""Light's TreeType of an account's state tree (photon-R1): a v1 tree's 1, a batched tree's 3."""
Seen = tuple[dict, Answer, int]
"""An AccountV2 as the target gave it, the answer it came in and its place in that answer's items."""
V2_ACCOUNTS: MemoKey[dict[str, Seen]] = MemoKey("v2 accounts")


def _needs(ctx: CheckContext, *methods: str) -> None:
    """N/A unless the run's contract has the V2 methods this check asks."""
    missing = [name for name in methods if name not in ctx.contract.methods]
    if missing:
        raise NotApplicable(f"the run's contract ({ctx.contract.version}) has no {', '.join(missing)}: "
                            "`--api photon-366a15b` certifies the API clients call today")


@check("v2.method-present", clauses=("photon-R10",), basis=Basis.CONTRACT,
       description="Every method the run's contract adds to the spec's is served (no \"Method not found\"); a "
                   "missing one names the client versions that call it")
def method_present(ctx: CheckContext) -> None:
    if ctx.contract.extends is None:
        raise NotApplicable(f"the run's contract ({ctx.contract.version}) adds no method to the spec's")
    for name in ctx.contract.own_methods():
        method = ctx.contract.method(name)
        answer = ctx.call(name, formal_params(ctx, method))
        error = answer.error or {}
        if error.get("code") == METHOD_NOT_FOUND:
            callers = list(method.observed.get("called_by", ()))
            who = ", ".join(callers) if callers else "no published client we know of, but the contract lists it"
            ctx.defer(CheckFailure(f"Method of the contract missing: {name}", method=name,
                                   expected=f"{name} served, as {ctx.contract.version} lists it; called by {who}",
                                   received=error, answer=answer, path=member("error"),
                                   clauses=(method.clause, "photon-R10"), detail={"called_by": callers}))
        ctx.examined("methods", method=name)


def _truth_of(ctx: CheckContext) -> dict[str, dict]:
    """The V1 form of every live account discovery saw, by hash (its `tree` is the one the account is in)."""
    closed = set(ctx.keys["closed_hashes"])
    seen: dict[str, dict] = {}
    for account in (*ctx.keys.accounts.values(), *(i.get("account") for i in ctx.keys.token_accounts.values()),
                    *(s.get("account") for s in ctx.keys.touched.values())):
        if isinstance(account, dict) and isinstance(account.get("hash"), str) and account["hash"] not in closed:
            seen.setdefault(account["hash"], account)
    return seen


def _v2_accounts(ctx: CheckContext) -> dict[str, Seen]:
    """hash -> its AccountV2 as the target gives it (getMultipleCompressedAccountsV2)."""
    hashes = list(_truth_of(ctx))[:ACCOUNTS_ASKED]
    found: dict[str, Seen] = {}
    for start in range(0, len(hashes), PER_REQUEST):
        answer = ctx.call("getMultipleCompressedAccountsV2", {"hashes": hashes[start:start + PER_REQUEST]})
        items = answer.value.get("items") if isinstance(answer.value, dict) else None
        for index, item in enumerate(items if isinstance(items, list) else []):
            if isinstance(item, dict) and isinstance(item.get("hash"), str):
                found[item["hash"]] = (item, answer, index)
    return found


def _accounts(ctx: CheckContext) -> dict[str, Seen]:
    accounts = ctx.once(V2_ACCOUNTS, _v2_accounts)
    if not accounts:
        raise Skip("no live account discovered came back from getMultipleCompressedAccountsV2")
    return accounts


def _batched(ctx: CheckContext) -> set[str] | None:
    """The batched state trees of the run: the ledger's, else those the target's getQueueInfo names (a contract
    with it: none named is no batched tree); None when the run cannot tell."""
    if ctx.batched_trees is None and "getQueueInfo" not in ctx.contract.methods:
        return None
    return set(ctx.batched_trees or ()) | set(ctx.keys.get("batched_trees"))


def _reference_items(ctx: CheckContext, hashes: list[str], name: str) -> dict[str, dict]:
    """The reference's AccountV2 of each hash, when the run has a reference over the same ledger."""
    if ctx.reference is None:
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


@check("v2.merkle-context", clauses=("photon-R2", "photon-R1"), basis=Basis.LEDGER,
       description="An AccountV2's merkleContext is the tree and queue the account is in: the tree of its V1 "
                   "answer, one queue per tree and no queue of another tree, the tree type of its tree's kind, "
                   "as the reference over the same ledger has them")
def merkle_context(ctx: CheckContext) -> None:
    _needs(ctx, "getMultipleCompressedAccountsV2")
    accounts = _accounts(ctx)
    truth, reference = _truth_of(ctx), _reference_items(ctx, list(accounts), "merkle-context")
    queues_of: dict[str, set[str]] = {}
    for item, _answer, _index in accounts.values():
        context = item.get("merkleContext") if isinstance(item.get("merkleContext"), dict) else {}
        queues_of.setdefault(str(context.get("tree")), set()).add(str(context.get("queue")))
    for hash_, (item, answer, index) in accounts.items():
        context = item.get("merkleContext") if isinstance(item.get("merkleContext"), dict) else {}
        at = result_value("items", index, "merkleContext")
        expected = _expected_context(ctx, truth.get(hash_), reference.get(hash_))
        for name, value in expected.items():
            if context.get(name) != value:
                ctx.defer(CheckFailure(f"merkleContext.{name} is not the account's", answer=answer,
                                       expected=f"{value} ({'the reference' if hash_ in reference else 'its V1 answer'}"
                                                f" for account {hash_})", received=context.get(name),
                                       path=f"{at}.{name}"))
        tree, queue = context.get("tree"), context.get("queue")
        others = sorted(t for t, queues in queues_of.items() if queue in queues and t != str(tree))
        if len(queues_of.get(str(tree), ())) > 1 or others:
            ctx.defer(CheckFailure("merkleContext.queue of another tree", answer=answer, path=f"{at}.queue",
                                   expected=f"the one queue of tree {tree}, no other tree's",
                                   received={"queue": queue, "queues given for this tree": sorted(queues_of[str(tree)]),
                                             "also given as the queue of": others}))
        ctx.examined("accounts", method="getMultipleCompressedAccountsV2")


def _expected_context(ctx: CheckContext, v1: dict | None, reference: dict | None) -> dict[str, Any]:
    """What the context of one account must hold: the reference's (tree, queue, treeType), else the tree of the
    account's V1 answer and the type of that tree's kind when the run knows the ledger's batched trees."""
    if reference is not None and isinstance(reference.get("merkleContext"), dict):
        return {name: reference["merkleContext"].get(name) for name in CONTEXT}
    expected: dict[str, Any] = {}
    if v1 is not None and isinstance(v1.get("tree"), str):
        expected["tree"] = v1["tree"]
        batched = _batched(ctx)
        if batched is not None:
            expected["treeType"] = V1_TREE_TYPES["batched" if v1["tree"] in batched else "state"]
    return expected


@check("v2.prove-by-index", clauses=("photon-R4",), basis=Basis.LEDGER,
       description="proveByIndex is true exactly for an account still in its batched tree's output queue: never "
                   "for a v1 tree's account, and as the reference over the same ledger says for a batched one")
def prove_by_index(ctx: CheckContext) -> None:
    _needs(ctx, "getMultipleCompressedAccountsV2")
    accounts = _accounts(ctx)
    reference = _reference_items(ctx, list(accounts), "prove-by-index")
    batched = _batched(ctx)
    for hash_, (item, answer, index) in accounts.items():
        context = item.get("merkleContext") if isinstance(item.get("merkleContext"), dict) else {}
        got, at = item.get("proveByIndex"), result_value("items", index, "proveByIndex")
        if hash_ in reference:
            expected = reference[hash_].get("proveByIndex")
            why = "the reference over the same ledger: " + ("still in the output queue" if expected
                                                           else "appended to its tree")
        elif batched is not None and context.get("tree") not in batched:
            expected, why = False, "a v1 tree's account is in its tree, never in an output queue"
        else:
            continue  # a batched account with no ledger to say where it is: crypto.batched-accounts judges its proof
        if got is not expected:
            ctx.defer(CheckFailure("proveByIndex is not the account's place", answer=answer, path=at,
                                   expected=f"{expected}: {why} (account {hash_})", received=got))
        ctx.examined("accounts", method="getMultipleCompressedAccountsV2")


def _one_per_tree(ctx: CheckContext) -> list[str]:
    """A live account of each of a few trees (appended ones first: they have root indices to compare)."""
    queued = {hash_ for hash_, (item, _a, _i) in ctx.once(V2_ACCOUNTS, _v2_accounts).items()
              if item.get("proveByIndex") is True}
    per_tree: dict[str, str] = {}
    for hash_, account in sorted(_truth_of(ctx).items(), key=lambda pair: pair[0] in queued):
        per_tree.setdefault(str(account.get("tree")), hash_)
    return list(per_tree.values())[:PROOF_TREES]


def _indices(answer: Answer) -> dict[str, tuple[Any, Any, int]]:
    """hash -> (rootIndex, root, position) of each account of a getValidityProofV2 answer."""
    accounts = answer.value.get("accounts") if isinstance(answer.value, dict) else None
    return {item["hash"]: (item.get("rootIndex"), item.get("root"), at)
            for at, item in enumerate(accounts if isinstance(accounts, list) else [])
            if isinstance(item, dict) and isinstance(item.get("hash"), str)}


@check("v2.validity-root-indices", clauses=("photon-R5",), basis=Basis.LEDGER,
       description="getValidityProofV2 takes each account's root index in its own tree's root history: an account "
                   "asked with accounts of other trees gets the root index and root it gets alone, and the "
                   "reference's over the same ledger")
def validity_root_indices(ctx: CheckContext) -> None:
    _needs(ctx, "getValidityProofV2", "getMultipleCompressedAccountsV2")
    hashes = _one_per_tree(ctx)
    if len(hashes) < 2:
        raise Skip("fewer than two trees with a live account discovered: no combined proof to ask")
    alone = {}
    for hash_ in hashes:
        answer = ctx.call("getValidityProofV2", {"hashes": [hash_]})
        alone.update({h: v[:2] for h, v in _indices(answer).items()})
    for group in _groups(hashes):
        params = {"hashes": list(group)}
        answer = ctx.call("getValidityProofV2", params)
        if not answer.has_result:
            continue  # a refusal is judged by the params family; nothing here to compare
        got = _indices(answer)
        truth = _indices(ctx.ask_reference("getValidityProofV2", params, id=f"csi-v2-roots-{len(group)}")) \
            if ctx.reference is not None else {}
        for hash_, (index, root, at) in got.items():
            expected = truth[hash_][:2] if hash_ in truth else alone.get(hash_)
            if expected is not None and (index, root) != expected:
                source = "the reference's" if hash_ in truth else "the one it gets when asked alone"
                ctx.defer(CheckFailure("Root index not taken in the account's own tree", answer=answer,
                                       path=result_value("accounts", at, "rootIndex"),
                                       expected={"rootIndex": expected[0], "root": expected[1], "as": source},
                                       received={"rootIndex": index, "root": root},
                                       detail={"asked with": [h for h in group if h != hash_]}))
            ctx.examined("accounts", method="getValidityProofV2")


def _groups(hashes: list[str]) -> Iterable[tuple[str, ...]]:
    """Every pair of the accounts, and all of them together when more than two."""
    yield from combinations(hashes, 2)
    if len(hashes) > 2:
        yield tuple(hashes)

