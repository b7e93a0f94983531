"""Spends of accounts the forester appended to a batched tree, by root, with a real v2 inclusion proof.

Once a batch append has moved an account's hash from its output queue into the tree, the account can be
spent as a v1 account is: its place names the tree, its queue and its leaf index with `prove_by_index`
false (the byte that was 0.18.0's empty queue index), a root index into the tree's root history, and a
Groth16 proof of Light's v2 inclusion circuit (height 32, one public input: the hash chain of the roots
and leaves, `ledger_proofs.circuits_v2`), made by the prover of the v2 circuits (npm 0.27.0, Light's June
2025 keys) and verified by today's system program with those keys patched in (`patched_programs.py`).
The nullifier goes into the tree's input queue as a spend by index puts it; the output queue keeps the
value, which the program reads no more.
"""

from __future__ import annotations

from dataclasses import dataclass

from csi_conformance.ledger_chain.batched_model import TodayModel, read_batched_tree
from csi_conformance.ledger_chain.instructions import CompressedAccount, InputAccount
from csi_conformance.ledger_chain.operations import Built, Context, Labelled
from csi_conformance.ledger_chain.system import Output, invoke
from csi_conformance.ledger_proofs.request_v2 import V2Account

__all__ = ["V2Spend"]


def _int(value: bytes) -> int:
    return int.from_bytes(value, "big")


@dataclass(frozen=True)
class V2Spend(Labelled):
    """User `user` spends appended accounts of one batched tree by root, into `outputs`."""

    label: str
    user: int
    inputs: tuple[bytes, ...]
    outputs: tuple[Output, ...]

    def describe(self) -> str:
        return f"{self.label}: user {self.user}, {len(self.inputs)} in by root (v2 proof), {len(self.outputs)} out"

    def build(self, ctx: Context) -> Built:
        model = ctx.model
        assert isinstance(model, TodayModel)
        accounts = [model.live[hash_] for hash_ in self.inputs]
        tree = accounts[0].tree
        mirror = model.batched[tree]
        root = _int(mirror.tree.root)
        proof = ctx.prover.prove_v2([V2Account(root, _int(a.hash), a.leaf_index,
                                               tuple(_int(node) for node in mirror.tree.proof(a.leaf_index)))
                                     for a in accounts])
        root_index = read_batched_tree(ctx.runtime.data(tree)).root_index
        inputs = [InputAccount(CompressedAccount(a.owner, a.lamports, a.address), a.hash, tree, mirror.queue,
                               a.leaf_index, root_index) for a in accounts]
        signer = ctx.keys.user(self.user)
        ix = invoke(payer=signer.pubkey(), authority=signer.pubkey(), inputs=inputs, outputs=list(self.outputs),
                    proof=proof)
        return Built((ix,), (signer,))
