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

from csi_conformance.harness.context import Answer, CheckContext, MemoKey, answer_value
from csi_conformance.harness.context.served import NOT_SERVED, not_served
from csi_conformance.harness.core.failures import CheckFailure, NotApplicable, Skip
from csi_conformance.harness.core.model import Basis
from csi_conformance.harness.core.paths import member, result_value
from csi_conformance.harness.core.registry import check
from csi_conformance.harness.judging.pages import partly
from csi_conformance.harness.judging.refusals import formal_params
from csi_conformance.harness.verify.batched import in_tree
from csi_conformance.harness.verify.merkle_context import (
    Given,
    batched_trees,
    expected_context,
    judge_contexts,
    live_accounts,
    reference_items,
)

ACCOUNTS_ASKED = 40
"""Live accounts whose V2 form is asked at most (in requests of `PER_REQUEST`)."""
PER_REQUEST = 20
PROOF_TREES = 3
"""Trees a combined validity proof takes one account of, at most (the prover's counts allow 1 to 4)."""
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
        if not_served(answer):
            callers = list(method.observed.get("called_by", ()))
            who = ", ".join(callers) if callers else "no published client we know of, but the contract lists it"
            ctx.defer(CheckFailure(f"Method of the contract missing: {name}", method=name,
                                   expected=f"{name} served, as {ctx.contract.version} lists it; called by {who}",
                                   received=answer.error if answer.error is not None else answer_value(answer),
                                   answer=answer,
                                   path=member("error") if answer.error is not None else member("result"),
                                   clauses=(method.clause, "photon-R10"),
                                   detail={"called_by": callers, NOT_SERVED: name}))
        ctx.examined("methods", method=name)


def _v2_accounts(ctx: CheckContext) -> dict[str, Seen]:
    """hash -> its AccountV2 as the target gives it (getMultipleCompressedAccountsV2)."""
    hashes = list(live_accounts(ctx))[:ACCOUNTS_ASKED]
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


@check("v2.merkle-context", clauses=("photon-R2", "photon-R1"), basis=Basis.LEDGER,
       description="An AccountV2's merkleContext is the tree and queue the account is in: the tree of its V1 "
                   "answer, one queue per tree and no queue of another tree, the tree type of its tree's kind, "
                   "as the reference over the same ledger has them")
def merkle_context(ctx: CheckContext) -> None:
    _needs(ctx, "getMultipleCompressedAccountsV2")
    accounts = _accounts(ctx)
    v1, reference = live_accounts(ctx), reference_items(ctx, list(accounts), "merkle-context")
    given = [Given(hash_, item["merkleContext"] if isinstance(item.get("merkleContext"), dict) else {}, answer,
                   result_value("items", index, "merkleContext")) for hash_, (item, answer, index) in accounts.items()]
    truths = {hash_: expected_context(ctx, v1.get(hash_), reference.get(hash_)) for hash_ in accounts}
    judge_contexts(ctx, given, truths, label="merkleContext")
    ctx.examined("accounts", len(given), method="getMultipleCompressedAccountsV2")


@check("v2.prove-by-index", clauses=("photon-R4",), basis=Basis.LEDGER,
       description="proveByIndex is true exactly for an account still in its batched tree's output queue: never "
                   "for a v1 tree's account, and for a batched one as the reference over the same ledger says, else "
                   "as the target's own account proof shows (the account's hash in the tree, or an empty leaf)")
def prove_by_index(ctx: CheckContext) -> None:
    _needs(ctx, "getMultipleCompressedAccountsV2")
    accounts = _accounts(ctx)
    reference = reference_items(ctx, list(accounts), "prove-by-index")
    batched = batched_trees(ctx)
    unplaced = [hash_ for hash_, (item, _a, _i) in accounts.items() if hash_ not in reference
                and not (batched is not None and _context(item).get("tree") not in batched)]
    placed = _placed_by_proofs(ctx, unplaced)
    for hash_, (item, answer, index) in accounts.items():
        if hash_ in reference:
            expected = reference[hash_].get("proveByIndex")
            why = "the reference over the same ledger: " + ("still in the output queue" if expected
                                                           else "appended to its tree")
        elif hash_ in placed:
            expected, why = placed[hash_]
        elif hash_ not in unplaced:
            expected, why = False, "a v1 tree's account is in its tree, never in an output queue"
        else:
            partly(ctx, f"account {hash_}: no ledger and no readable proof of the target's says where it is")
            continue
        if item.get("proveByIndex") is not expected:
            ctx.defer(CheckFailure("proveByIndex is not the account's place", answer=answer,
                                   path=result_value("items", index, "proveByIndex"),
                                   expected=f"{expected}: {why} (account {hash_})", received=item.get("proveByIndex")))
        ctx.examined("accounts", method="getMultipleCompressedAccountsV2")


def _context(item: dict) -> dict:
    return item["merkleContext"] if isinstance(item.get("merkleContext"), dict) else {}


def _placed_by_proofs(ctx: CheckContext, hashes: list[str]) -> dict[str, tuple[bool, str]]:
    """hash -> (proveByIndex it must have, why) for the accounts no ledger places, from the target's own
    getCompressedAccountProofV2: a path that folds the account's hash to the root puts it in its tree, one that
    folds an empty leaf leaves it in the output queue. That answer's own proveByIndex must say the same."""
    if "getCompressedAccountProofV2" not in ctx.contract.methods:
        return {}
    placed = {}
    for hash_ in hashes:
        answer = ctx.call("getCompressedAccountProofV2", {"hash": hash_})
        appended = in_tree(answer.value)
        if appended is None:
            continue
        leaf = answer.value["leafIndex"]
        why = (f"the target's own proof (getCompressedAccountProofV2) folds its hash at leaf {leaf} to the root: "
               "it is in its tree") if appended else (f"the target's own proof (getCompressedAccountProofV2) holds "
                                                      f"an empty leaf at {leaf}: it waits in the output queue")
        placed[hash_] = (not appended, why)
        if answer.value.get("proveByIndex") is appended:
            ctx.defer(CheckFailure("proveByIndex is not the account's place", answer=answer,
                                   path=result_value("proveByIndex"), expected=f"{not appended}: {why}",
                                   received=answer.value.get("proveByIndex")))
    return placed


def _one_per_tree(ctx: CheckContext) -> list[str]:
    """A live account of each of a few trees (appended ones first: they have root indices to compare)."""
    queued = {hash_ for hash_, (item, _a, _i) in ctx.once(V2_ACCOUNTS, _v2_accounts).items()
              if item.get("proveByIndex") is True}
    per_tree: dict[str, str] = {}
    for hash_, account in sorted(live_accounts(ctx).items(), key=lambda pair: pair[0] in queued):
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
            if ctx.has_reference else {}
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

