"""Operations of today's programs on batched state trees: accounts written into an output queue and
spent from it by index, with no proof.

Today's system and token programs name an input's place as `PackedMerkleContext {tree index, queue
index, leaf index, prove_by_index}` (Light's `program-libs/compressed-account/src/compressed_account.rs`):
the byte that was 0.18.0's empty `Option<QueueIndex>` is now `prove_by_index`, so a v1 input encodes
as before and an input of a batched tree names its tree (`bmt…`), its output queue (`oq…`) and
`prove_by_index = true`; the program then finds the account's hash at that index of the queue and
zeroes it there. An output names the output queue of its tree (a v1 tree names the tree). With only
such inputs and no new address there is no proof (a proof there is verified, and fails). Spends
of v1 accounts need a validity proof: the published 0.28.3 verifier (October 2025 keys) refuses the
installed prover's (`RefusedV1Spend`); with the June 2025 keys patched in it accepts them, and v1 spends
are `operations.SolInvoke`'s as on 0.18.0's programs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

import construct
from borsh_construct import U8, U16, U32, U64, Bool, CStruct, Option, Vec
from borsh_construct import Bytes as BorshBytes
from csi_conformance.ledger_chain.instructions import CompressedAccount, Remaining, account_value, metas
from csi_conformance.ledger_chain.layouts import vec_argument
from csi_conformance.ledger_chain.model import LiveAccount
from csi_conformance.ledger_chain.operations import Built, Context, Labelled, Operation, SolInvoke, lamports_moved
from csi_conformance.ledger_chain.programs import (
    ACCOUNT_COMPRESSION,
    COMPRESSED_TOKEN,
    LIGHT_SYSTEM,
    NOOP,
    SOLANA_SYSTEM,
    SPL_TOKEN,
    STATE_TREE,
    pda,
    token_pool,
)
from csi_conformance.ledger_chain.programs_0_28 import BATCHED_TREES
from csi_conformance.ledger_chain.system import Output
from csi_conformance.ledger_chain.token import create_ata
from solders.instruction import Instruction
from solders.pubkey import Pubkey
from solders.token.associated import get_associated_token_address

__all__ = ["BatchedInvoke", "BatchedTokenTransfer", "DoubleSpendByIndex", "RefusedV1Spend", "queue_of"]

INCLUSION_BY_INDEX_FAILED = 14307
"""`InclusionProofByIndexFailed` of the batched tree library: no such value at that index of the queue."""
PROOF_VERIFICATION_FAILED = 6043
"""Today's light system program: `ProofVerificationFailed`."""

KEY = construct.Bytes(32)
PROOF = CStruct("a" / KEY, "b" / construct.Bytes(64), "c" / KEY)
MERKLE_CONTEXT = CStruct("merkle_tree_pubkey_index" / U8, "queue_pubkey_index" / U8, "leaf_index" / U32,
                         "prove_by_index" / Bool)
COMPRESSED_ACCOUNT = CStruct(
    "owner" / KEY, "lamports" / U64, "address" / Option(KEY),
    "data" / Option(CStruct("discriminator" / construct.Bytes(8), "data" / BorshBytes, "data_hash" / KEY)))
INVOKE = CStruct(
    "proof" / Option(PROOF),
    "inputs" / Vec(CStruct("compressed_account" / COMPRESSED_ACCOUNT, "merkle_context" / MERKLE_CONTEXT,
                           "root_index" / U16, "read_only" / Bool)),
    "outputs" / Vec(CStruct("compressed_account" / COMPRESSED_ACCOUNT, "merkle_tree_index" / U8)),
    "relay_fee" / Option(U64), "new_address_params" / Vec(construct.Bytes(36)),
    "compress_or_decompress_lamports" / Option(U64), "is_compress" / Bool,
)
"""Today's `InstructionDataInvoke` (no new addresses here: v2 addresses need an invoking program)."""
TOKEN_TRANSFER = CStruct(
    "proof" / Option(PROOF), "mint" / KEY,
    "delegated_transfer" / Option(CStruct("owner" / KEY, "delegate_change_account_index" / Option(U8))),
    "inputs" / Vec(CStruct("amount" / U64, "delegate_index" / Option(U8), "merkle_context" / MERKLE_CONTEXT,
                           "root_index" / U16, "lamports" / Option(U64), "tlv" / Option(BorshBytes))),
    "outputs" / Vec(CStruct("owner" / KEY, "amount" / U64, "lamports" / Option(U64), "merkle_tree_index" / U8,
                            "tlv" / Option(BorshBytes))),
    "is_compress" / Bool, "compress_or_decompress_amount" / Option(U64),
    "cpi_context" / Option(CStruct("set_context" / Bool, "first_set_context" / Bool,
                                   "cpi_context_account_index" / U8)),
    "lamports_change_account_merkle_tree_index" / Option(U8),
)
"""Today's `CompressedTokenInstructionDataTransfer`."""


def queue_of(tree: Pubkey) -> Pubkey:
    """What an output names: a batched tree's output queue, or the v1 tree itself."""
    return BATCHED_TREES.get(tree, tree)


def _context(remaining: Remaining, account: LiveAccount, queues: Mapping[Pubkey, Pubkey]) -> dict:
    """Where an input is: its tree, the tree's queue (a key of no known tree is named for both, and the
    program refuses it), and its leaf index, proven by index."""
    return {"merkle_tree_pubkey_index": remaining.index(account.tree),
            "queue_pubkey_index": remaining.index(queues.get(account.tree, account.tree)),
            "leaf_index": account.leaf_index, "prove_by_index": True}


def invoke_by_index(*, payer: Pubkey, inputs: Sequence[LiveAccount], outputs: Sequence[Output],
                    compress: int | None = None, decompress: int | None = None,
                    queues: Mapping[Pubkey, Pubkey] = BATCHED_TREES) -> Instruction:
    """`invoke` spending batched-tree accounts by index (no proof) into outputs of any tree; `queues` names
    each input tree's queue."""
    remaining = Remaining()
    packed_inputs = [{"compressed_account": account_value(CompressedAccount(a.owner, a.lamports, a.address)),
                      "merkle_context": _context(remaining, a, queues), "root_index": 0, "read_only": False}
                     for a in inputs]
    packed_outputs = sorted(
        ({"compressed_account": account_value(CompressedAccount(o.owner, o.lamports, o.address)),
          "merkle_tree_index": remaining.index(queue_of(o.tree))} for o in outputs),
        key=lambda output: output["merkle_tree_index"])
    lamports = compress if compress is not None else decompress
    data = vec_argument("invoke", INVOKE, {
        "proof": None, "inputs": packed_inputs, "outputs": packed_outputs, "relay_fee": None,
        "new_address_params": [], "compress_or_decompress_lamports": lamports, "is_compress": compress is not None})
    sol_pool = pda("sol_pool")[0] if lamports is not None else LIGHT_SYSTEM
    recipient = payer if decompress is not None else LIGHT_SYSTEM
    accounts = metas(
        (payer, True, True), (payer, True, False), (pda("registered_system_program")[0], False, False),
        (NOOP, False, False), (pda("system_cpi_authority")[0], False, False), (ACCOUNT_COMPRESSION, False, False),
        (sol_pool, False, lamports is not None), (recipient, False, decompress is not None),
        (SOLANA_SYSTEM, False, False))
    return Instruction(LIGHT_SYSTEM, data, accounts + remaining.metas())


def _delegate(remaining: Remaining, account: LiveAccount) -> int | None:
    """The index of a token account's delegate among the remaining accounts: its hash covers the delegate."""
    if account.token is None or account.token.delegate is None:
        return None
    return remaining.index(Pubkey.from_bytes(account.token.delegate))


def token_transfer_by_index(signer: Pubkey, mint: Pubkey, *, inputs: Sequence[LiveAccount],
                            outputs: Sequence[tuple[Pubkey, int, Pubkey]], compress: int | None = None,
                            decompress: int | None = None, queues: Mapping[Pubkey, Pubkey] = BATCHED_TREES
                            ) -> Instruction:
    """The token program's `transfer` with batched-tree inputs spent by index; outputs (owner, amount, tree);
    `queues` names each input tree's queue."""
    remaining = Remaining()
    packed_inputs = [{"amount": a.token.amount if a.token else 0, "delegate_index": _delegate(remaining, a),
                      "merkle_context": _context(remaining, a, queues), "root_index": 0, "lamports": None,
                      "tlv": None}
                     for a in inputs]
    packed_outputs = sorted(({"owner": bytes(owner), "amount": amount, "lamports": None,
                              "merkle_tree_index": remaining.index(queue_of(tree)), "tlv": None}
                             for owner, amount, tree in outputs), key=lambda output: output["merkle_tree_index"])
    amount = compress if compress is not None else decompress
    data = vec_argument("transfer", TOKEN_TRANSFER, {
        "proof": None, "mint": bytes(mint), "delegated_transfer": None, "inputs": packed_inputs,
        "outputs": packed_outputs, "is_compress": compress is not None, "compress_or_decompress_amount": amount,
        "cpi_context": None, "lamports_change_account_merkle_tree_index": None})
    moving = amount is not None
    token_account = get_associated_token_address(signer, mint)
    accounts = metas(
        (signer, True, True), (signer, True, False), (pda("token_cpi_authority")[0], False, False),
        (LIGHT_SYSTEM, False, False), (pda("registered_system_program")[0], False, False), (NOOP, False, False),
        (pda("system_cpi_authority")[0], False, False), (ACCOUNT_COMPRESSION, False, False),
        (COMPRESSED_TOKEN, False, False), (token_pool(mint) if moving else COMPRESSED_TOKEN, False, moving),
        (token_account if moving else COMPRESSED_TOKEN, False, moving),
        (SPL_TOKEN if moving else COMPRESSED_TOKEN, False, False), (SOLANA_SYSTEM, False, False))
    return Instruction(COMPRESSED_TOKEN, data, accounts + remaining.metas())


@dataclass(frozen=True)
class BatchedInvoke(Labelled):
    """Compressed SOL with batched-tree inputs spent by index: transfer, merge, decompress (outputs may go
    to either kind of tree), or a plain compress into an output queue."""

    label: str
    user: int
    inputs: tuple[bytes, ...] = ()
    outputs: tuple[Output, ...] = ()
    compress: int | None = None
    decompress: int | None = None


    def describe(self) -> str:
        return (f"{self.label}: user {self.user}, {len(self.inputs)} in by index, {len(self.outputs)} out"
                f"{lamports_moved(self.compress, self.decompress)}")

    def build(self, ctx: Context) -> Built:
        signer = ctx.keys.user(self.user)
        ix = invoke_by_index(payer=signer.pubkey(), inputs=[ctx.model.live[h] for h in self.inputs],
                             outputs=self.outputs, compress=self.compress, decompress=self.decompress)
        return Built((ix,), (signer,))


@dataclass(frozen=True)
class DoubleSpendByIndex(Operation):
    """Spend by index an account already spent from its output queue: its value there is zero (14307).
    The output goes to the v1 tree, so a full output queue cannot refuse it first (14301 BatchNotReady)."""

    kind: ClassVar[str] = "double-spend-by-index"
    user: int
    spent: bytes

    def build(self, ctx: Context) -> Built:
        account = ctx.model.spent[self.spent]
        signer = ctx.keys.user(self.user)
        ix = invoke_by_index(payer=signer.pubkey(), inputs=[account],
                             outputs=[Output(signer.pubkey(), account.lamports, STATE_TREE)])
        return Built((ix,), (signer,), fails_with=INCLUSION_BY_INDEX_FAILED)


@dataclass(frozen=True)
class RefusedV1Spend(Operation):
    """A v1 transfer with a real proof of the installed (0.18.0) prover: the published 0.28.3 verifier, which
    checks Light's October 2025 keys, refuses it (6043). Drawn only on a chain of the unpatched programs."""

    kind: ClassVar[str] = "v1-spend-refused"
    spend: SolInvoke

    def describe(self) -> str:
        return f"{self.kind}: {self.spend.describe()}"

    def build(self, ctx: Context) -> Built:
        built = self.spend.build(ctx)
        return Built(built.instructions, built.signers, fails_with=PROOF_VERIFICATION_FAILED)


@dataclass(frozen=True)
class BatchedTokenTransfer(Labelled):
    """The token program's `transfer` of batched-tree token accounts by index (owner signs), optionally
    decompressing to the signer's SPL token account."""

    label: str
    mint: Pubkey
    user: int
    inputs: tuple[bytes, ...]
    outputs: tuple[tuple[int, int, Pubkey], ...]
    """(user, amount, tree) of each output."""
    decompress: int | None = None


    def describe(self) -> str:
        return f"{self.label}: user {self.user}, {len(self.inputs)} in by index, {len(self.outputs)} out"

    def build(self, ctx: Context) -> Built:
        signer = ctx.keys.user(self.user)
        outputs = [(ctx.keys.user(u).pubkey(), amount, tree) for u, amount, tree in self.outputs]
        ix = token_transfer_by_index(signer.pubkey(), self.mint, inputs=[ctx.model.live[h] for h in self.inputs],
                                     outputs=outputs, decompress=self.decompress)
        if not self.decompress:
            return Built((ix,), (signer,))
        key, amount = (signer.pubkey(), self.mint), self.decompress

        def learn(model: object) -> None:
            spl = model.spl  # type: ignore[attr-defined]
            spl[key] = spl.get(key, 0) + amount

        return Built((create_ata(signer.pubkey(), signer.pubkey(), self.mint)[0], ix), (signer,), after=learn)
