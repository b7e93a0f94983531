"""A root that differs from the reference's, said as what it is: the seq each side implies, and where the kit
knows the tree, the operations the target's tree lacks or has besides.

`rootIndices[i]` says a seq modulo 2400 and `rootSeq` the seq itself, so the difference between the
target's and the reference's is a count of operations (the target's tree behind or ahead). Where the
kit knows every leaf and spend of a state tree, each side's root is matched to the spent leaves it has
nullified; where it knows the addresses, each side is asked which of them its address tree holds. A
lost nullification then reads as one: "the target's tree lacks the nullification of leaf 3".
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from csi_conformance.groundwork.base58 import b58encode
from csi_conformance.harness.checks.crypto.known_trees import address_elements, created_addresses, state_leaves
from csi_conformance.harness.checks.crypto.trees import candidate_roots
from csi_conformance.harness.context import Answer, CheckContext
from csi_conformance.harness.core.failures import CheckFailure, Mismatch
from csi_conformance.harness.core.values import clip
from csi_conformance.ledger_crypto import ROOT_HISTORY

__all__ = ["ADDRESS", "BATCHED", "STATE", "Diagnosis", "Served", "reference_failure"]

STATE = ("ledger-T4", "ledger-T1")
"""The clauses a finding about a state tree's root cites."""
ADDRESS = ("ledger-T4", "ledger-T2")
"""The clauses a finding about an address tree's root cites."""
BATCHED = ("ledger-B2",)
"""The clauses a finding about a batched (v2) state tree's root cites: its seq counts batch events, its root
index is modulo its own root-history length, so the v1 reading of a seq (one per leaf written) does not apply."""
TITLES = {
    "index": "Root index differs from the ledger's",
    "nullifications": "Root misses nullifications the ledger's tree has",
    "insertions": "Root misses address insertions the ledger's tree has",
    "behind": "Root of a tree behind the ledger's",
    "ahead": "Root of a tree ahead of the ledger's",
    "same": "Root differs from the ledger's at the same seq",
}
"""Each way a served root can differ from the ledger's: the fixed titles of its findings."""


@dataclass(frozen=True)
class Served:
    """One root an answer serves, with the seq it implies: a root index (mod 2400) or a rootSeq."""

    kind: str
    """"state" or "address"."""
    tree: Any
    root: int | None
    index: Any
    by_seq: bool
    """`index` is a rootSeq (a new-address proof), not a root index."""
    root_path: str
    index_path: str

    @property
    def index_name(self) -> str:
        return "rootSeq" if self.by_seq else "rootIndex"

    def shown(self, seq: int | None) -> dict[str, Any]:
        root = b58encode(self.root.to_bytes(32, "big")) if self.root is not None and 0 <= self.root < 2**256 \
            else self.root
        return {"root": root, self.index_name: self.index, **({"seq": seq} if seq is not None and not self.by_seq
                                                               else {})}


def _behind(mine: Served, theirs: Served) -> int | None:
    """Operations the target's tree lacks against the ledger's (negative: has besides); None if unreadable."""
    if type(mine.index) is not int or type(theirs.index) is not int:
        return None
    if mine.by_seq:
        return theirs.index - mine.index
    gap = (theirs.index - mine.index) % ROOT_HISTORY
    return gap if gap <= ROOT_HISTORY // 2 else gap - ROOT_HISTORY


class Diagnosis:
    """What the kit can say of one tree's difference; the state it needs is read once, when first needed."""

    def __init__(self, ctx: CheckContext, unread: Callable[[CheckContext], tuple[str | None, Any]]) -> None:
        self.ctx, self._unread = ctx, unread
        self._leaves: dict | None = None
        self._elements: tuple | None = None

    def state(self, mine: Served, theirs: Served) -> tuple[str | None, dict, tuple[int | None, int | None]]:
        """(the title's key when the difference is lost or extra nullifications, facts, (seq served, ledger's))."""
        if self._leaves is None:
            unread, _ = self._unread(self.ctx)
            self._leaves = {} if unread else state_leaves(self.ctx.keys)[0]
        leaves = self._leaves.get(mine.tree)
        if leaves is None or type(mine.index) is not int or type(theirs.index) is not int:
            return None, {}, (None, None)
        seqs = [leaves.seqs_for(served.index) for served in (mine, theirs)]
        seq_mine, seq_theirs = (found[0] if len(found) == 1 else None for found in seqs)
        if seq_mine is None or seq_theirs is None:
            return None, {}, (seq_mine, seq_theirs)
        nullified = []
        for served, seq in ((mine, seq_mine), (theirs, seq_theirs)):
            states = candidate_roots(leaves, seq) or {}
            nullified.append(states.get(served.root.to_bytes(32, "big")) if served.root is not None
                             and 0 <= served.root < 2**256 else None)
        if None in nullified:
            return None, {}, (seq_mine, seq_theirs)
        lacks, besides = sorted(nullified[1] - nullified[0]), sorted(nullified[0] - nullified[1])
        facts = {"nullifications the target's tree lacks": [{"leafIndex": i, "hash": leaves.hashes[i]} for i in lacks],
                 "nullifications only the target's tree has": [{"leafIndex": i, "hash": leaves.hashes[i]}
                                                                for i in besides]}
        return ("nullifications" if lacks and not besides else None), facts, (seq_mine, seq_theirs)

    def address(self) -> tuple[str | None, dict]:
        """(the title's key when the target's tree lacks addresses the ledger's holds, facts)."""
        if self._elements is None:
            addresses = created_addresses(self.ctx.keys)
            number = itertools.count()
            mine = address_elements(addresses, self.ctx.call)
            theirs = address_elements(addresses, lambda method, params: self.ctx.ask_reference(
                method, params, id=f"csi-roots-addresses-{next(number)}"))
            self._elements = (mine, theirs)
        mine, theirs = self._elements
        if mine is None or theirs is None or mine.unreadable or theirs.unreadable:
            return None, {}
        lacks = sorted(set(theirs.held.values()) - set(mine.held.values()))
        besides = sorted(set(mine.held.values()) - set(theirs.held.values()))
        shown = [b58encode(v.to_bytes(32, "big")) for v in lacks]
        facts = {"addresses the target's tree lacks": shown,
                 "addresses only the target's tree holds": [b58encode(v.to_bytes(32, "big")) for v in besides]}
        return ("insertions" if lacks and not besides else None), facts


def reference_failure(answer: Answer, mine: Served, theirs: Served, diagnosis: Diagnosis) -> CheckFailure:
    """The finding for a root or seq the target serves that the reference, over the same ledger, does not."""
    behind = _behind(mine, theirs)
    batched = mine.kind == "state" and mine.tree in (diagnosis.ctx.facts.batched_trees or ())
    if batched:
        found, facts, seq_mine, seq_theirs = None, {}, None, None
    elif mine.kind == "state":
        found, facts, (seq_mine, seq_theirs) = diagnosis.state(mine, theirs)
    else:
        (found, facts), seq_mine, seq_theirs = diagnosis.address(), None, None
    path = mine.index_path if mine.root == theirs.root else mine.root_path
    if mine.root == theirs.root:
        key = "index"
    elif found:
        key = found
    elif not behind:
        key = "same"
    else:
        key = "behind" if behind > 0 else "ahead"
    lacks = "batch events the target's tree lacks" if batched else "operations the target's tree lacks"
    detail = {"tree": mine.tree, lacks: behind, **facts}
    clauses = BATCHED if batched else STATE if mine.kind == "state" else ADDRESS
    return Mismatch(TITLES[key], expected=theirs.shown(seq_theirs), received=mine.shown(seq_mine), answer=answer,
                    method=answer.method, clauses=clauses, path=path,
                    detail={k: clip(v) for k, v in detail.items() if v not in (None, [])})
