"""Family `crypto`: accounts of batched (v2) state trees proven as their place in the tree says.

A batched tree's new account first waits in the tree's output queue: it has a leaf index but no leaf, so it
can only be proven by index (§2.10's `proveByIndices`; the wire form has no such member and observed practice
refuses it, "Leaf nodes not found"). Once a forester's BatchAppend moved it into the tree, it is proven by the
tree's root at the tree's own root index (its sequence number modulo its own root-history length, not another
tree's: Photon's #342). The validity-proof checks take v1 trees' accounts only (their Groth16 keys are the
kit's); this one asks a proof of each batched account sampled and judges what can be judged without the
batched circuits' keys: against the reference over the same ledger (whether the account left the queue, the
root and root index), and with no ledger known, the leaf, leaf index and tree, and a root that is no empty
tree's. In §2.10's form each element's `treeInfos` names the tree and queue a client spends through: it is
judged whole, for queued accounts and accounts in trees alike (verify.merkle_context, as v2.merkle-context).
"""

from __future__ import annotations

from typing import Any

from csi_conformance.groundwork.base58 import b58encode
from csi_conformance.harness.context import Answer, CheckContext
from csi_conformance.harness.core.failures import CheckFailure, Mismatch, NotApplicable, Skip
from csi_conformance.harness.core.model import Basis, Status
from csi_conformance.harness.core.paths import member, result_value
from csi_conformance.harness.core.registry import check
from csi_conformance.harness.core.values import clip
from csi_conformance.harness.judging.pages import partly
from csi_conformance.harness.verify.batched import (
    EMPTY_BATCHED_ROOT,
    Proven,
    batched_hashes,
    batched_sample,
    proven,
)
from csi_conformance.harness.verify.merkle_context import (
    Given,
    expected_context,
    judge_contexts,
    live_accounts,
    reference_items,
)
from csi_conformance.harness.verify.values import bn_value

TREES = 4
"""Batched trees judged at most, two accounts each."""
QUEUE = ("ledger-B3",)
TREE = ("ledger-B2", "ledger-B3")


def _hex(value: int | None) -> str:
    return "unreadable" if value is None else b58encode(value.to_bytes(32, "big")) if 0 <= value < 2**256 \
        else str(value)


def _shown(got: Proven) -> dict[str, Any]:
    return {"how": got.how, "root": _hex(got.root), "rootIndex": got.root_index, "leafIndex": got.leaf_index}


def _consumed(ctx: CheckContext, account: dict) -> bool:
    """Whether the account was spent since discovery (a live target moves): then its proof is no fault."""
    if ctx.call("getCompressedAccount", {"hash": account["hash"]}, judge=False).value is None:
        partly(ctx, f"account {account['hash']} was consumed since discovery, so its proof was not judged")
        return True
    return False


def _element(ctx: CheckContext, answer: Answer, account: dict, got: Proven) -> None:
    """The element names the account asked: its hash as leaf, its leaf index and its tree."""
    wanted = {"leaves": (bn_value(account["hash"]), got.leaf), "leafIndices": (account["leafIndex"], got.leaf_index),
              "merkleTrees" if got.form == "wire" else "treeInfos": (account["tree"], got.tree)}
    for name, (expected, received) in wanted.items():
        if received is not None and received != expected:
            shown = (_hex(expected), _hex(received)) if name == "leaves" else (expected, received)
            ctx.defer(Mismatch("Proof element is not the account asked", expected=shown[0], received=shown[1],
                               answer=answer, method=answer.method, clauses=("ledger-P3",),
                               path=result_value(name, 0)))


def _against_ledger(ctx: CheckContext, answer: Answer, account: dict, got: Proven, truth: Proven) -> None:
    """The reference over the same ledger says whether the account left the output queue, and its tree's root
    and root index when it did."""
    where = f"account {account['hash']} (leaf {account['leafIndex']} of {account['tree']})"
    queued = truth.how != "by root"
    if queued and got.how == "by root":
        ctx.defer(CheckFailure("Account in the output queue proven by a root", clauses=QUEUE, answer=answer,
                               method=answer.method, expected=f"{where} waits in its tree's output queue: proven by "
                               "index (proveByIndices true) or refused", received=_shown(got),
                               path=result_value("proveByIndices" if got.form != "wire" else "roots", 0),
                               reference=truth.how))
    elif queued and got.how == "refused":
        ctx.defer(CheckFailure("Account in the output queue refused a proof (observed practice)", clauses=QUEUE,
                               answer=answer, method=answer.method, basis=Basis.OBSERVED, status=Status.INFO,
                               expected=f"{where}: a proof by index (§2.10 proveByIndices)",
                               received=clip(answer.error), path=member("error")))
    elif not queued and got.how == "refused":
        ctx.defer(CheckFailure("Account in the tree refused a proof", clauses=TREE, answer=answer,
                               method=answer.method, expected=f"{where} left the output queue: a proof by its tree's "
                               f"root {_hex(truth.root)} at root index {truth.root_index}",
                               received=clip(answer.error), path=member("error")))
    elif not queued and got.how == "by index":
        ctx.defer(CheckFailure("Account in the tree proven by index", clauses=TREE, answer=answer,
                               method=answer.method, expected=f"{where} left the output queue: proveByIndices false, "
                               f"root {_hex(truth.root)} at root index {truth.root_index}", received=_shown(got),
                               path=result_value("proveByIndices", 0)))
    elif not queued:
        if got.root_index != truth.root_index:
            ctx.defer(Mismatch("Root index is not the tree's own", clauses=TREE, answer=answer, method=answer.method,
                               expected=truth.root_index, received=got.root_index, path=result_value("rootIndices", 0),
                               detail={"tree": account["tree"], "rule": "the tree's sequence number modulo that "
                                       "tree's own root-history length"}))
        if got.root != truth.root:
            ctx.defer(Mismatch("Root is not the tree's root", clauses=TREE, answer=answer, method=answer.method,
                               expected=_hex(truth.root), received=_hex(got.root), path=result_value("roots", 0),
                               detail={"tree": account["tree"], "ledger's root index": truth.root_index}))


def _alone(ctx: CheckContext, answer: Answer, account: dict, got: Proven) -> None:
    """With no ledger known, an account proven by a root makes its tree non-empty; the rest takes the ledger."""
    if got.how == "by root" and got.root in (0, EMPTY_BATCHED_ROOT):
        ctx.defer(CheckFailure("Empty-tree root for an account in the tree", clauses=TREE, answer=answer,
                               method=answer.method, expected=f"the root of a batched tree holding {account['hash']}",
                               received=_hex(got.root), path=result_value("roots", 0)))
    partly(ctx, "with no ledger known, whether an account left the output queue, and its tree's root and "
                "root-history length, are not judged (compare with the ledger: --ledger)")


@check("crypto.batched-accounts", clauses=("ledger-B2", "ledger-B3", "ledger-P3"), basis=Basis.LEDGER,
       description="An account of a batched (v2) tree is proven by index while it waits in the output queue, and "
                   "by its tree's root at that tree's own root index once appended")
def batched_accounts(ctx: CheckContext) -> None:
    sample = batched_sample(ctx, trees=TREES)
    if not sample:
        raise NotApplicable("no live account of a batched (v2) state tree discovered: the target's ledger, as far "
                            "as its answers show, holds v1 trees only")
    for number, account in enumerate(sample):
        params = {"hashes": [account["hash"]]}
        answer = ctx.call("getValidityProof", params)
        got = proven(answer)
        if got is None or (got.how == "refused" and _consumed(ctx, account)):
            continue  # unreadable: the schema checks report it
        truth = None
        if ctx.has_reference and account["tree"] not in ctx.facts.reference_partial_trees:
            truth = proven(ctx.ask_reference("getValidityProof", params, id=f"csi-batched-{number}"))
        if got.how != "refused":
            _element(ctx, answer, account, got)
        if truth is not None:
            _against_ledger(ctx, answer, account, got, truth)
        elif got.how == "refused":
            partly(ctx, f"account {account['hash']} refused: in the output queue (observed practice refuses it) or "
                        "not, only the ledger tells (--ledger)")
            continue
        else:
            _alone(ctx, answer, account, got)
        ctx.examined("accounts")
    if not ctx.examined_anything:
        raise Skip("; ".join(ctx.unreached()) if ctx.unreached()
                   else "no proof of a batched account could be read")


def _tree_infos_sample(ctx: CheckContext) -> list[dict]:
    """The batched accounts crypto.batched-accounts asks of (the likeliest appended and the likeliest queued of
    each tree), and the first live account of each v1 tree, at most `TREES` of each kind."""
    batched = batched_hashes(ctx)
    per_tree: dict[str, dict] = {}
    for hash_, account in live_accounts(ctx).items():
        if hash_ not in batched and isinstance(account.get("tree"), str):
            per_tree.setdefault(account["tree"], account)
    return batched_sample(ctx, trees=TREES) + list(per_tree.values())[:TREES]


def _tree_info(ctx: CheckContext, account: dict) -> tuple[Given | None, bool]:
    """The one treeInfos element of a one-account proof (None when there is none to judge), and whether the answer
    was in the wire form (merkleTrees: no treeInfos)."""
    answer = ctx.call("getValidityProof", {"hashes": [account["hash"]]})
    value = answer.value if answer.has_result else None
    if not isinstance(value, dict):
        return None, False  # refused: crypto.batched-accounts and the params family judge refusals
    infos = value.get("treeInfos")
    if infos is None:
        return None, "merkleTrees" in value
    if not isinstance(infos, list) or len(infos) != 1 or not isinstance(infos[0], dict):
        return None, False  # the schema checks report it
    return Given(account["hash"], infos[0], answer, result_value("treeInfos", 0)), False


@check("crypto.validity-tree-infos", clauses=("ledger-P3", "ledger-B1", "ledger-B3"), basis=Basis.LEDGER,
       description="Each treeInfos element of a §2.10 validity proof names the tree and queue the account is in "
                   "and its tree's type, for an account still in an output queue as for one in its tree: the "
                   "reference's over the same ledger, else its V1 answer's tree and a queue that is not the tree, "
                   "one queue per tree")
def validity_tree_infos(ctx: CheckContext) -> None:
    accounts = _tree_infos_sample(ctx)
    if not accounts:
        raise Skip("no live account discovered")
    given, wire = [], False
    for account in accounts:
        info, in_wire_form = _tree_info(ctx, account)
        wire = wire or in_wire_form
        given += [info] if info is not None else []
    if not given:
        if wire:
            raise NotApplicable("the target answers getValidityProof in the wire form: merkleTrees, no treeInfos "
                                "(ambiguity validity-proof-fields); crypto.validity-proof judges its trees")
        raise Skip("no validity proof with treeInfos could be read")
    reference = reference_items(ctx, [item.hash for item in given], "tree-infos")
    by_hash = {account["hash"]: account for account in accounts}
    truths = {item.hash: expected_context(ctx, by_hash[item.hash], reference.get(item.hash)) for item in given}
    judge_contexts(ctx, given, truths, label="treeInfos")
    ctx.examined("accounts", len(given), method="getValidityProof")
