"""Every root a target serves is a root its tree had, at the seq the answer implies: what
`crypto.tree-roots` judges.

A server whose tree lost a nullification (or an address insertion) serves roots that are
self-consistent: its proofs fold to them, its accounts' seqs agree with them. Only the tree's history
is wrong, and only a tree rebuilt from the ledger's operations shows it (ledger-T4).

With a reference over the same ledger (`--scenario`, `--ledger-rpc`, `--chain`), the reference holds
the whole ledger: it is asked the same validity proofs and new-address proofs, and a root that
differs is named with the seq each side implies and, where the kit knows the tree's leaves, with the
operations the target's tree lacks (a lost nullification reads as one).

Without a reference, the kit rebuilds what it soundly can (`harness.checks.crypto.trees`). A state tree is
rebuilt when discovery met every leaf index of it and read every transaction the target lists (so
every append and every spend is known): the root index names one seq, the seq says how many spent
leaves were nullified, and the root served must be the root of one such state. Which spent leaves a
forester zeroed is not visible, so when the states are many the tree is not judged. The address tree
is rebuilt from the addresses the target proves it holds, at their indices, when their count is the
one rootSeq implies. What the kit could not rebuild is said in the notes, never passed in silence,
and nothing is failed on a guess.

A batched (v2) state tree is judged by its own rules, never by the v1 ones: its kind is what the ledger says
(the reference's batched trees, getQueueInfo), else what the proof says (`treeInfos[].treeType`), else what
its accounts' hashes say (`known_trees.tree_kinds`); a tree of no known kind is not judged. Its root index is
a place in its own root history, whose length only the ledger knows: without a reference it is not judged.
Its root must be one its leaves give (`trees.appended_roots`) while none of them was spent; after a spend
its nullifiers, bound to the spending transactions, are not rebuilt, and the notes say so.
"""

from __future__ import annotations

from typing import Any

from csi_conformance.groundwork.base58 import b58encode
from csi_conformance.groundwork.jsonio import dumps
from csi_conformance.harness.checks.crypto.known_trees import (
    address_elements,
    created_addresses,
    live_account_per_tree,
    state_leaves,
    tree_kinds,
)
from csi_conformance.harness.checks.crypto.tree_diagnosis import (
    ADDRESS,
    BATCHED,
    STATE,
    Diagnosis,
    Served,
    reference_failure,
)
from csi_conformance.harness.checks.crypto.trees import (
    FRESH_ADDRESS_SEQ,
    StateLeaves,
    address_tree_of,
    appended_roots,
    candidate_roots,
)
from csi_conformance.harness.context import Answer, CheckContext
from csi_conformance.harness.core.failures import CheckFailure, Mismatch, Skip
from csi_conformance.harness.core.paths import result_value
from csi_conformance.harness.core.values import clip
from csi_conformance.harness.discover import LIST_LIMIT
from csi_conformance.harness.judging.pages import partly, walk_pages
from csi_conformance.harness.verify.validity import elements_of
from csi_conformance.harness.verify.values import bn_value
from csi_conformance.ledger_crypto import ROOT_HISTORY

__all__ = ["judge_tree_roots", "served_roots", "transactions_unread"]

TREES = 4
"""State trees judged at most, one validity proof each."""
SIGNATURE_PAGES = 3
"""Pages of `LIST_LIMIT` latest compression signatures read to learn whether discovery read them all."""
NO_ROOT = "Root is no root the tree had at that seq"


def judge_tree_roots(ctx: CheckContext) -> None:
    """Against the reference when the run has one, else against the trees the kit can rebuild."""
    live = list(live_account_per_tree(ctx.keys).items())
    for tree, _ in live[TREES:]:
        partly(ctx, f"state tree {tree}: past the {TREES} trees judged")
    live = live[:TREES]
    if ctx.has_reference:
        _against_reference(ctx, live)
    else:
        _against_rebuild(ctx, live)
    if not ctx.examined_anything:
        raise Skip("; ".join(ctx.unreached()) or "no state tree and no address tree to judge")


def served_roots(answer: Answer) -> list[Served]:
    """The roots an answer serves: each element of a validity proof (accounts, then addresses), or each
    new-address proof; [] when the answer cannot be read (the schema and crypto checks report it)."""
    value = answer.value if answer.has_result else None
    if answer.method == "getMultipleNewAddressProofs":
        items = value if isinstance(value, list) else []
        return [Served("address", item.get("merkleTree"), bn_value(item.get("root")), item.get("rootSeq"), True,
                       result_value(i, "root"), result_value(i, "rootSeq"))
                for i, item in enumerate(items) if isinstance(item, dict)]
    params = answer.params if isinstance(answer.params, dict) else {}
    hashes = len(params.get("hashes") or [])
    elements, problems = elements_of(value, hashes + len(params.get("newAddressesWithTrees") or []))
    return [] if problems else [
        Served("state" if i < hashes else "address", e.tree, e.root, e.root_index, False,
               result_value("roots", i), result_value("rootIndices", i)) for i, e in enumerate(elements)]


# -- with a reference over the same ledger ------------------------------------------------------------------
def _against_reference(ctx: CheckContext, live: list[tuple[str, dict]]) -> None:
    asked: list[tuple[str, Any]] = [("getValidityProof", {"hashes": [account["hash"]]}) for _, account in live]
    asked.append(("getMultipleNewAddressProofs", [ctx.fresh_pubkey()]))
    diagnosis = Diagnosis(ctx, transactions_unread)
    for number, (method, params) in enumerate(asked):
        answer = ctx.call(method, params)
        ledger = ctx.ask_reference(method, params, id=f"csi-roots-{number}")
        served, held = served_roots(answer), served_roots(ledger)
        if not served or len(served) != len(held):
            partly(ctx, f"{method} of {dumps(clip(params))}: no roots to compare (the target or the reference refused)")
            continue
        for mine, theirs in zip(served, held, strict=True):
            if theirs.tree in ctx.facts.reference_partial_trees:
                partly(ctx, f"tree {theirs.tree}: the reference's ledger holds only part of its history (a slice "
                            "that starts mid-chain), so its roots are no truth to compare with")
                continue
            ctx.examined("roots", method=method)
            if (mine.root, mine.index) != (theirs.root, theirs.index):
                ctx.defer(reference_failure(answer, mine, theirs, diagnosis))


# -- without one: the trees the kit can rebuild ---------------------------------------------------------------
def transactions_unread(ctx: CheckContext) -> tuple[str | None, tuple[str, ...]]:
    """Why discovery did not read every compression transaction the target lists (None when it did), and the
    signatures listed now: every append and spend is known only when all were read."""
    walk = walk_pages(ctx, ctx.method("getLatestCompressionSignatures"), {}, size=LIST_LIMIT,
                      max_pages=SIGNATURE_PAGES)
    listed = tuple(walk.keys)
    if not walk.complete():
        return f"the target lists more than the {len(listed)} compression transactions read", listed
    unread = [signature for signature in listed if signature not in ctx.keys.transactions]
    if unread:
        return f"discovery read {len(listed) - len(unread)} of the {len(listed)} transactions listed", listed
    return None, listed


def _against_rebuild(ctx: CheckContext, live: list[tuple[str, dict]]) -> None:
    unread, listed = transactions_unread(ctx)
    known, unknown = state_leaves(ctx.keys)
    kinds = tree_kinds(ctx.keys)
    for tree, account in live:
        if unread or tree not in known:
            partly(ctx, f"state tree {tree} not rebuilt: {unread or unknown.get(tree, 'no leaf of it seen')}")
            continue
        answer = ctx.call("getValidityProof", {"hashes": [account["hash"]]})
        served = served_roots(answer)
        batched = _batched(ctx, tree, answer, kinds)
        if not served or type(served[0].index) is not int or served[0].index < 0:
            # refused, or unreadable: crypto.validity-proof and the schema checks judge that
            partly(ctx, f"state tree {tree}: no readable root in the proof of {account['hash']}")
        elif batched is None:
            partly(ctx, f"state tree {tree}: whether it is a v1 or a batched tree is not known (the ledger, the "
                        "proof's treeInfos and its accounts' hashes do not say), so its roots were not judged")
        elif batched:
            _judge_batched(ctx, answer, served[0], known[tree], listed)
        elif served[0].index < ROOT_HISTORY:
            _judge_state(ctx, answer, served[0], known[tree], listed)
        else:
            partly(ctx, f"state tree {tree}: root index {served[0].index} is past the root history (the schema "
                        "checks judge the value)")
    for tree in sorted(set(known) - set(live_account_per_tree(ctx.keys))):
        partly(ctx, f"state tree {tree}: no live account seen to ask a proof of")
    _judge_address_tree(ctx, unread)


STATE_V2 = (3, "StateV2", "stateV2", "state_v2")
"""`treeType` values of a batched state tree (Light's TreeType 3), as the API's forms spell it."""
STATE_V1 = (1, "StateV1", "stateV1", "state_v1", "state")


def _batched(ctx: CheckContext, tree: str, answer: Answer, kinds: dict[str, bool]) -> bool | None:
    """Whether `tree` is batched: the ledger's word, getQueueInfo's, the proof's treeInfos, or its accounts' hashes;
    None when none says."""
    if ctx.facts.batched_trees is not None:
        return tree in ctx.facts.batched_trees
    if tree in set(ctx.keys.get("batched_trees")):
        return True
    value = answer.value if answer.has_result and isinstance(answer.value, dict) else {}
    infos = value.get("treeInfos") if isinstance(value.get("treeInfos"), list) else []
    types = {info.get("treeType") for info in infos if isinstance(info, dict) and info.get("tree") == tree}
    if len(types) == 1 and (types <= set(STATE_V2) or types <= set(STATE_V1)):
        return types <= set(STATE_V2)
    return kinds.get(tree)


def _judge_batched(ctx: CheckContext, answer: Answer, served: Served, leaves: StateLeaves,
                   listed: tuple[str, ...]) -> None:
    """A batched tree's root is that of its first m leaves until a nullification; its root index is not judged
    here (its root history's length is the tree account's)."""
    value = answer.value if isinstance(answer.value, dict) else {}
    if (value.get("proveByIndices") or [False])[:1] == [True]:
        partly(ctx, f"batched state tree {leaves.tree}: its account is proven by index (in the output queue): no root")
        return
    partly(ctx, f"batched state tree {leaves.tree}: its root index {served.index} is a place in its own root "
                "history, whose length only the ledger holds: judged against a reference (--ledger, --chain)")
    if served.root is None or not 0 <= served.root < 2**256:
        return  # an unreadable root: schema.result and crypto.value-ranges report it
    root = served.root.to_bytes(32, "big")
    ctx.examined("roots", method=answer.method)
    states = appended_roots(leaves)
    if root in states:
        return
    if leaves.spent:
        partly(ctx, f"batched state tree {leaves.tree}: its root is none of its {leaves.appends} leaves' before a "
                    f"nullification; after one, the nullifiers of its {len(leaves.spent)} spent leaves (bound to "
                    "the spending transactions) are not rebuilt, so the root was not judged")
        return
    if _moved(ctx, listed):
        return
    ctx.defer(CheckFailure(NO_ROOT, expected=f"the root of its first m leaves, m in [0, {leaves.appends}] (a batched "
                           "tree none of whose leaves was spent)", received=b58encode(root), answer=answer,
                           method=answer.method, clauses=BATCHED, path=served.root_path,
                           detail={"tree": leaves.tree, "leaves": leaves.appends, "root index": served.index}))


def _judge_state(ctx: CheckContext, answer: Answer, served: Served, leaves: StateLeaves,
                 listed: tuple[str, ...]) -> None:
    seqs = leaves.seqs_for(served.index)
    low, high = leaves.seq_bounds()
    if len(seqs) > 1:
        partly(ctx, f"state tree {leaves.tree}: root index {served.index} names {len(seqs)} seqs")
        return
    states = candidate_roots(leaves, seqs[0]) if seqs else {}
    if states is None:
        partly(ctx, f"state tree {leaves.tree}: which {seqs[0] - low} of its {len(leaves.spent)} spent leaves "
                    f"were nullified at seq {seqs[0]} is not determined (too many states to rebuild)")
        return
    if served.root is None or not 0 <= served.root < 2**256:
        return  # an unreadable root: schema.result and crypto.value-ranges report it
    root = served.root.to_bytes(32, "big")
    ctx.examined("roots", method=answer.method)
    if root in states:
        if len(states[root]) < len(leaves.spent):
            partly(ctx, f"state tree {leaves.tree}: its root is that of {len(states[root])} of its "
                        f"{len(leaves.spent)} spent leaves nullified; whether the others wait for a forester or were "
                        "lost takes the ledger to tell (a reference: --scenario, --ledger-rpc, --chain)")
        return
    if _moved(ctx, listed):
        return
    facts = {"tree": leaves.tree, "appends": low, "spent leaves": len(leaves.spent), "root index": served.index}
    if not seqs:
        ctx.defer(CheckFailure("Root index names no seq the tree can have", expected=f"rootSeq % {ROOT_HISTORY} for "
                               f"a seq in [{low}, {high}]: {low} appends and at most {high - low} nullifications",
                               received=served.index, answer=answer, method=answer.method, clauses=STATE,
                               path=served.index_path, detail=facts))
        return
    roots = sorted(b58encode(r) for r in states)
    expected = roots[0] if len(roots) == 1 else f"one of the {len(roots)} roots of its {low} leaves with " \
        f"{seqs[0] - low} of its {len(leaves.spent)} spent leaves nullified"
    kind = Mismatch if len(roots) == 1 else CheckFailure
    ctx.defer(kind(NO_ROOT, expected=expected, received=b58encode(root), answer=answer, method=answer.method,
                   clauses=STATE, path=served.root_path, detail={**facts, "seq": seqs[0], "roots it can have":
                                                                 clip(roots)}))


def _moved(ctx: CheckContext, listed: tuple[str, ...]) -> bool:
    """Whether transactions arrived since discovery (a live target moves): read the list again."""
    _, now = transactions_unread(ctx)
    if now != listed:
        partly(ctx, "the target's transactions moved during the check, so its trees were not judged")
        return True
    return False


def _judge_address_tree(ctx: CheckContext, unread: str | None) -> None:
    """The elements the target proves it holds among the addresses seen make one tree when their count is the
    one rootSeq implies: its root must be the one served. (With no address seen, a random one is asked
    about: the tree must then be fresh, when every transaction was read.)"""
    created = created_addresses(ctx.keys)
    addresses = created or [ctx.fresh_pubkey()]
    found = address_elements(addresses, ctx.call)
    if found is None or found.unreadable:
        partly(ctx, f"address tree not rebuilt: {found.unreadable if found else 'more addresses than one request'}")
        return
    if found.root_seq != FRESH_ADDRESS_SEQ + 2 * len(found.held):
        partly(ctx, f"address tree not rebuilt: rootSeq {found.root_seq} is not {FRESH_ADDRESS_SEQ} + 2 per address "
                    f"held, and it proves {len(found.held)} of the {len(created)} addresses seen held"
                    + (f" ({unread})" if unread else ""))
        return
    tree = address_tree_of(found.held)
    items = found.answer.value
    index = next(i for i, item in enumerate(items) if item.get("lowElementLeafIndex") in found.held) \
        if found.held else 0
    ctx.examined("roots", method=found.answer.method)
    if tree is None:
        ctx.defer(CheckFailure("Address elements at indices no insertions give", expected=f"the {len(found.held)} "
                               f"addresses at element indices 2 .. {len(found.held) + 1}", received=clip(
                                   {str(i): b58encode(v.to_bytes(32, "big")) for i, v in sorted(found.held.items())}),
                               answer=found.answer, method=found.answer.method, clauses=ADDRESS,
                               path=result_value(index, "lowElementLeafIndex")))
    elif created and found.absent and b58encode(tree.root) == found.root:
        partly(ctx, f"address tree: it holds {len(found.held)} of the {len(created)} addresses seen; whether the "
                    "others wait for a forester or were lost takes the ledger to tell (a reference: --scenario, "
                    "--ledger-rpc, --chain)")
    elif b58encode(tree.root) != found.root:
        ctx.defer(Mismatch(NO_ROOT, expected=b58encode(tree.root), received=found.root, answer=found.answer,
                           method=found.answer.method, clauses=ADDRESS, path=result_value(0, "root"),
                           detail={"rootSeq": found.root_seq, "addresses held": len(found.held)}))
