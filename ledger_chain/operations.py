"""Operations on the chain: what a user, the forester or the treasurer does in one transaction.

An operation is a plan over the kit's model (which accounts to spend, what to create) drawn
before anything runs; `build` turns it into instructions against the model's current trees,
with a real proof where the program wants one. What the transaction did is then learned from its
events (`Model.apply`), never assumed. Kinds here: compressed SOL (compress, transfer with
change, merge, decompress, new addresses with or without inputs, a double spend the programs
refuse), the forester (nullify a spent leaf, insert a queued address) and setup (a second state
tree). Token operations are in `token_ops`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from csi_conformance.ledger_chain.accounts import queue_index, read_tree
from csi_conformance.ledger_chain.forester import nullify, update_address_tree
from csi_conformance.ledger_chain.instructions import CompressedAccount, InputAccount, metas
from csi_conformance.ledger_chain.keys import Keys
from csi_conformance.ledger_chain.layouts import INIT_STATE_TREE, anchor_data
from csi_conformance.ledger_chain.model import LiveAccount, Model, StateTreeMirror
from csi_conformance.ledger_chain.programs import ACCOUNT_COMPRESSION, LIGHT_SYSTEM, REGISTRY, pda
from csi_conformance.ledger_chain.proofs import ChainProver
from csi_conformance.ledger_chain.runtime import Runtime
from csi_conformance.ledger_chain.system import NewAddress, Output, invoke
from csi_conformance.ledger_crypto import hash_to_field
from solders.instruction import Instruction
from solders.keypair import Keypair
from solders.pubkey import Pubkey
from solders.system_program import CreateAccountParams, create_account

__all__ = ["Built", "Context", "CreateTree", "DoubleSpend", "InsertAddress", "Labelled", "Nullify", "Operation",
           "SolInvoke", "address_of", "lamports_moved"]

@dataclass
class Context:
    """What an operation builds against: the programs, the kit's model of the chain, the keys and the prover."""

    runtime: Runtime
    model: Model
    keys: Keys
    prover: ChainProver


TREE_SIZE, QUEUE_SIZE, CPI_CONTEXT_SIZE = 1_364_288, 1_382_992, 20 * 1024 + 8
"""Account sizes of a v1 state tree (height 26, changelog 1400, roots 2400, canopy 10), its nullifier
queue (28,807 cells) and its CPI context account (the protocol config's `cpi_context_size`)."""


@dataclass(frozen=True)
class Built:
    """A transaction to send: its instructions, its signers (the first pays), and what to learn after."""

    instructions: tuple[Instruction, ...]
    signers: tuple[Keypair, ...]
    queued: tuple[int, ...] = ()
    """New addresses it puts in the address queue."""
    after: Callable[[Model], None] | None = None
    """What the model learns of a success that no compression event says (a new tree, a mint, SPL balances)."""
    fails_with: int | None = None
    """The `Custom` code it must fail with (an operation the programs are meant to refuse)."""


class Operation:
    """Base of every operation: a kind (for coverage and the log) and `build`."""

    kind: ClassVar[str] = "operation"

    def build(self, ctx: Context) -> Built:
        raise NotImplementedError

    def describe(self) -> str:
        return self.kind


class Labelled(Operation):
    """An operation one class makes under several kinds (a merge, a transfer, …): its kind is the label it was
    drawn under (the subclass's `label` field)."""

    label: str

    @property
    def kind(self) -> str:  # type: ignore[override]
        return self.label


def address_of(seed: bytes, tree: Pubkey) -> bytes:
    """The address a seed makes in an address tree (v1): H2F(tree ‖ seed)."""
    return hash_to_field(bytes(tree), seed)


def input_of(model: Model, account: LiveAccount) -> InputAccount:
    mirror = model.state_trees[account.tree]
    return InputAccount(CompressedAccount(account.owner, account.lamports, account.address), account.hash,
                        account.tree, mirror.queue, account.leaf_index, mirror.tree.root_index)


# ----------------------------------------------------------------------------- compressed SOL


def lamports_moved(compress: int | None, decompress: int | None) -> str:
    """`, compress N` or `, decompress N` (or nothing), as an operation's description ends."""
    return f", compress {compress}" if compress else f", decompress {decompress}" if decompress else ""


@dataclass(frozen=True)
class SolInvoke(Labelled):
    """One `invoke` of the light system program, signed by user `user` (owner of every input)."""

    label: str
    user: int
    inputs: tuple[bytes, ...] = ()
    outputs: tuple[Output, ...] = ()
    seeds: tuple[bytes, ...] = ()
    compress: int | None = None
    decompress: int | None = None


    def describe(self) -> str:
        return (f"{self.label}: user {self.user}, {len(self.inputs)} in, {len(self.outputs)} out, "
                f"{len(self.seeds)} new addresses{lamports_moved(self.compress, self.decompress)}")

    def build(self, ctx: Context) -> Built:
        model = ctx.model
        signer = ctx.keys.user(self.user)
        accounts = [model.live[h] for h in self.inputs]
        values = [int.from_bytes(address_of(seed, model.address_tree_key), "big") for seed in self.seeds]
        proof = None
        if accounts or values:
            proof = ctx.prover.prove([model.account_proof(a) for a in accounts],
                                     [model.address_proof(v) for v in values])
        new_addresses = [NewAddress(seed, model.address_tree.root_index, model.address_tree_key, model.address_queue)
                         for seed in self.seeds]
        ix = invoke(payer=signer.pubkey(), authority=signer.pubkey(), inputs=[input_of(model, a) for a in accounts],
                    outputs=list(self.outputs), new_addresses=new_addresses, proof=proof, compress=self.compress,
                    decompress=self.decompress, recipient=signer.pubkey() if self.decompress else None)
        return Built((ix,), (signer,), queued=tuple(values))


@dataclass(frozen=True)
class DoubleSpend(Operation):
    """Spend again an account whose hash already sits in the nullifier queue: the queue refuses it (9002)."""

    kind: ClassVar[str] = "double-spend"
    user: int
    spent: bytes

    def build(self, ctx: Context) -> Built:
        model = ctx.model
        account = model.spent[self.spent]
        signer = ctx.keys.user(self.user)
        proof = ctx.prover.prove([model.account_proof(account)], [])
        ix = invoke(payer=signer.pubkey(), authority=signer.pubkey(), inputs=[input_of(model, account)],
                    outputs=[Output(signer.pubkey(), account.lamports, account.tree)], proof=proof)
        return Built((ix,), (signer,), fails_with=9002)


# ----------------------------------------------------------------------------- the forester


@dataclass(frozen=True)
class Nullify(Operation):
    """The forester zeroes the leaf of a spent account (registry `nullify`)."""

    kind: ClassVar[str] = "nullify"
    spent: bytes

    def build(self, ctx: Context) -> Built:
        account = ctx.model.spent[self.spent]
        mirror = ctx.model.state_trees[account.tree]
        onchain = read_tree(ctx.runtime.data(account.tree))
        ix = nullify(forester=ctx.keys.forester.pubkey(), tree=account.tree, queue=mirror.queue,
                     changelog_index=onchain.changelog_index,
                     queue_index=queue_index(ctx.runtime.data(mirror.queue), self.spent),
                     leaf_index=account.leaf_index, path=mirror.tree.proof(account.leaf_index))
        return Built((ix,), (ctx.keys.forester,))


@dataclass(frozen=True)
class InsertAddress(Operation):
    """The forester moves a queued address into the address tree (registry `update_address_merkle_tree`)."""

    kind: ClassVar[str] = "insert-address"
    value: int

    def build(self, ctx: Context) -> Built:
        model = ctx.model
        proof = model.address_tree.non_inclusion_proof(self.value)
        onchain = read_tree(ctx.runtime.data(model.address_tree_key))
        cell = queue_index(ctx.runtime.data(model.address_queue), self.value.to_bytes(32, "big"))
        ix = update_address_tree(
            forester=ctx.keys.forester.pubkey(), tree=model.address_tree_key, queue=model.address_queue,
            changelog_index=onchain.changelog_index, indexed_changelog_index=onchain.indexed_changelog_index or 0,
            queue_index=cell, low_index=proof.low_leaf_index, low_value=proof.low_value,
            low_next_index=proof.low_next_index, low_next_value=proof.low_next_value, path=proof.path)
        return Built((ix,), (ctx.keys.forester,))


# ----------------------------------------------------------------------------- setup


@dataclass(frozen=True)
class CreateTree(Operation):
    """A new state tree with its nullifier queue and CPI context, through the registry (anyone may):
    the kit's forester is named its forester, its network fee the protocol's (5,000 lamports)."""

    kind: ClassVar[str] = "create-tree"
    number: int

    def build(self, ctx: Context) -> Built:
        payer = ctx.keys.treasurer
        tree, queue, context = (ctx.keys.keypair(f"{part}/{self.number}") for part in ("tree", "queue", "cpi"))
        created = [create_account(CreateAccountParams(
            from_pubkey=payer.pubkey(), to_pubkey=key.pubkey(), lamports=ctx.runtime.rent(size), space=size,
            owner=owner)) for key, size, owner in ((tree, TREE_SIZE, ACCOUNT_COMPRESSION),
                                                   (queue, QUEUE_SIZE, ACCOUNT_COMPRESSION),
                                                   (context, CPI_CONTEXT_SIZE, LIGHT_SYSTEM))]
        authority, bump = pda("registry_cpi_authority")
        data = anchor_data("initialize_state_merkle_tree", INIT_STATE_TREE, {
            "bump": bump, "program_owner": None, "forester": bytes(ctx.keys.forester.pubkey()),
            "merkle_tree_config": {"height": 26, "changelog_size": 1400, "roots_size": 2400, "canopy_depth": 10,
                                   "network_fee": 5000, "rollover_threshold": 95, "close_threshold": None},
            "queue_config": {"capacity": 28_807, "sequence_threshold": 2410, "network_fee": None}})
        init = Instruction(REGISTRY, data, metas(
            (payer.pubkey(), True, True), (tree.pubkey(), False, True), (queue.pubkey(), False, True),
            (pda("registered_registry_program")[0], False, False), (authority, False, True),
            (ACCOUNT_COMPRESSION, False, False), (pda("protocol_config")[0], False, False),
            (context.pubkey(), False, True), (LIGHT_SYSTEM, False, False)))

        def learn(model: Model) -> None:
            model.state_trees[tree.pubkey()] = StateTreeMirror(tree.pubkey(), queue.pubkey())

        return Built((*created, init), (payer, tree, queue, context), after=learn)

