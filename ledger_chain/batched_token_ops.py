"""The token program's approve, revoke, freeze, thaw and burn of batched-tree token accounts, spent by
index with no proof, as today's programs (0.28.3) take them.

Today's token program keeps these instructions as 0.18.0 had them (Light's
`programs/compressed-token/anchor/src/{delegation,freeze,burn}.rs` at 8ddf06ba3: the same structs, the
same accounts); only each input's `PackedMerkleContext` is today's, whose last byte is
`prove_by_index` where 0.18.0 had an empty `Option<QueueIndex>` (see `batched_ops`). Their proof is
not optional: a proof of zeros is read as none, so inputs proven by index need none. So the v1
builders of `token.py` make each instruction, with the input's output queue as its queue and a
proof of zeros, and `by_index` writes its inputs' contexts again in today's form. Outputs name a
batched tree's output queue, or a v1 tree. A freeze or thaw carries no version byte: outputs are
hashed as v1 token data, as every other token output of this chain.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import construct
from borsh_construct import U8, U16, U64, Bool, CStruct, Option, Vec
from borsh_construct import Bytes as BorshBytes
from csi_conformance.ledger_chain.batched_ops import MERKLE_CONTEXT, PROOF, queue_of
from csi_conformance.ledger_chain.layouts import APPROVE, BURN, FREEZE, REVOKE
from csi_conformance.ledger_chain.model import LiveAccount, Model
from csi_conformance.ledger_chain.operations import Built, Context
from csi_conformance.ledger_chain.programs_0_28 import BATCHED_TREES
from csi_conformance.ledger_chain.token import TokenInput, approve, burn, freeze, revoke
from csi_conformance.ledger_chain.token_ops import Approve, Burn, FreezeOrThaw, Revoke
from solders.instruction import Instruction
from solders.pubkey import Pubkey

__all__ = ["ApproveByIndex", "BurnByIndex", "FreezeOrThawByIndex", "RevokeByIndex", "by_index", "inputs_by_index",
           "thaw_by_index"]

KEY = construct.Bytes(32)
NO_PROOF = {"a": bytes(32), "b": bytes(64), "c": bytes(32)}
"""`CompressedProof::default()`: the program reads it as no proof."""

INPUT = CStruct("amount" / U64, "delegate_index" / Option(U8), "merkle_context" / MERKLE_CONTEXT,
                "root_index" / U16, "lamports" / Option(U64), "tlv" / Option(BorshBytes))
CPI_CONTEXT = CStruct("set_context" / Bool, "first_set_context" / Bool, "cpi_context_account_index" / U8)
INPUTS = "input_token_data_with_context" / Vec(INPUT)
TODAY_LAYOUTS: dict[str, tuple[construct.Construct, construct.Construct]] = {
    "approve": (APPROVE, CStruct(
        "proof" / PROOF, "mint" / KEY, INPUTS, "cpi_context" / Option(CPI_CONTEXT), "delegate" / KEY,
        "delegated_amount" / U64, "delegate_merkle_tree_index" / U8, "change_account_merkle_tree_index" / U8,
        "delegate_lamports" / Option(U64))),
    "revoke": (REVOKE, CStruct(
        "proof" / PROOF, "mint" / KEY, INPUTS, "cpi_context" / Option(CPI_CONTEXT),
        "output_account_merkle_tree_index" / U8)),
    "freeze": (FREEZE, CStruct(
        "proof" / PROOF, "owner" / KEY, INPUTS, "cpi_context" / Option(CPI_CONTEXT),
        "outputs_merkle_tree_index" / U8)),
    "burn": (BURN, CStruct(
        "proof" / PROOF, INPUTS, "cpi_context" / Option(CPI_CONTEXT), "burn_amount" / U64,
        "change_account_merkle_tree_index" / U8,
        "delegated_transfer" / Option(CStruct("owner" / KEY, "delegate_change_account_index" / Option(U8))))),
}
"""Instruction -> (its 0.18.0 layout, today's: `CompressedTokenInstructionData{Approve,Revoke,Freeze,Burn}`).
Thaw takes freeze's."""


def _today_context(context: Any) -> dict[str, Any]:
    return {"merkle_tree_pubkey_index": context.merkle_tree_pubkey_index,
            "queue_pubkey_index": context.nullifier_queue_pubkey_index, "leaf_index": context.leaf_index,
            "prove_by_index": True}


def by_index(ix: Instruction, layout: str) -> Instruction:
    """A v1 builder's instruction (`layout` names its struct; thaw is `freeze`) with every input proven by
    index: the same accounts, its argument written again in today's layout."""
    v1, today = TODAY_LAYOUTS[layout]
    data = bytes(ix.data)
    value = v1.parse(data[12:])
    if v1.build(value) != data[12:]:
        raise ValueError(f"{layout}: the instruction's argument is not one {layout} struct")
    fields = {key: item for key, item in value.items() if not key.startswith("_")}
    fields["input_token_data_with_context"] = [
        {**{k: v for k, v in item.items() if not k.startswith("_")},
         "merkle_context": _today_context(item.merkle_context)}
        for item in value.input_token_data_with_context]
    inner = today.build(fields)
    return Instruction(ix.program_id, data[:8] + len(inner).to_bytes(4, "little") + inner, ix.accounts)


def inputs_by_index(accounts: Sequence[LiveAccount], queues: Mapping[Pubkey, Pubkey] = BATCHED_TREES
                    ) -> list[TokenInput]:
    """Token accounts as the v1 builders take them, proven by index: each names its tree's queue (`queues`; a
    key of no known tree is named for both, and the program refuses it); no root (none is proven)."""
    inputs = []
    for account in accounts:
        assert account.token is not None
        delegate = None if account.token.delegate is None else Pubkey.from_bytes(account.token.delegate)
        inputs.append(TokenInput(account.token.amount, account.tree, queues.get(account.tree, account.tree),
                                 account.leaf_index, 0, delegate, account.lamports))
    return inputs


def thaw_by_index(authority: Pubkey, account: LiveAccount, *, tree: Pubkey,
                  queues: Mapping[Pubkey, Pubkey] = BATCHED_TREES) -> Instruction:
    """A thaw of one frozen account by index, at the tree and leaf index `account` names, signed by its mint's
    freeze authority (the one spend of a frozen account), its output into `tree`."""
    assert account.token is not None
    mint, owner = Pubkey.from_bytes(account.token.mint), Pubkey.from_bytes(account.token.owner)
    ix = freeze(authority, authority, mint, owner=owner, inputs=inputs_by_index([account], queues), proof=NO_PROOF,
                tree=queue_of(tree), thaw=True)
    return by_index(ix, "freeze")


def _live(model: Model, hashes: tuple[bytes, ...]) -> list[LiveAccount]:
    return [model.live[h] for h in hashes]


@dataclass(frozen=True)
class ApproveByIndex(Approve):
    """Delegate part of batched-tree token accounts (the owner signs); the rest comes back undelegated."""

    kind: ClassVar[str] = "approve-by-index"

    def build(self, ctx: Context) -> Built:
        signer = ctx.keys.user(self.user)
        ix = approve(signer.pubkey(), signer.pubkey(), self.mint, inputs=inputs_by_index(_live(ctx.model, self.inputs)),
                     proof=NO_PROOF, delegate=ctx.keys.user(self.delegate).pubkey(), amount=self.amount,
                     tree=queue_of(self.tree))
        return Built((by_index(ix, "approve"),), (signer,))


@dataclass(frozen=True)
class RevokeByIndex(Revoke):
    """Merge delegated batched-tree token accounts into one undelegated account (the owner signs)."""

    kind: ClassVar[str] = "revoke-by-index"

    def build(self, ctx: Context) -> Built:
        signer = ctx.keys.user(self.user)
        ix = revoke(signer.pubkey(), signer.pubkey(), self.mint, inputs=inputs_by_index(_live(ctx.model, self.inputs)),
                    proof=NO_PROOF, tree=queue_of(self.tree))
        return Built((by_index(ix, "revoke"),), (signer,))


@dataclass(frozen=True)
class FreezeOrThawByIndex(FreezeOrThaw):
    """The mint's freeze authority (the treasurer) freezes, or thaws, a user's batched-tree token accounts."""

    @property
    def kind(self) -> str:  # type: ignore[override]
        return "thaw-by-index" if self.thaw else "freeze-by-index"

    def build(self, ctx: Context) -> Built:
        payer = ctx.keys.treasurer
        ix = freeze(payer.pubkey(), payer.pubkey(), self.mint, owner=ctx.keys.user(self.owner).pubkey(),
                    inputs=inputs_by_index(_live(ctx.model, self.inputs)), proof=NO_PROOF, tree=queue_of(self.tree),
                    thaw=self.thaw)
        return Built((by_index(ix, "freeze"),), (payer,))


@dataclass(frozen=True)
class BurnByIndex(Burn):
    """Burn part of batched-tree token accounts (and as much SPL supply from the pool); the change stays."""

    kind: ClassVar[str] = "burn-by-index"

    def build(self, ctx: Context) -> Built:
        signer = ctx.keys.user(self.user)
        ix = burn(signer.pubkey(), signer.pubkey(), self.mint, inputs=inputs_by_index(_live(ctx.model, self.inputs)),
                  proof=NO_PROOF, amount=self.amount, tree=queue_of(self.tree))
        return Built((by_index(ix, "burn"),), (signer,))
