"""Operations of the compressed token program: mints and pools, mint_to, transfer (plain, delegated,
compressing SPL tokens, decompressing them), approve, revoke, freeze, thaw, burn; and the SPL
minting a user needs before compressing SPL tokens.

The treasurer holds every mint's authority and freeze authority. Inputs are the model's live
token accounts of one mint and one holder; the program rebuilds their TokenData from the
instruction and the signer, so the plan names who signs as what (owner, delegate, freeze
authority).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from csi_conformance.ledger_chain.model import LiveAccount, Mint, Model
from csi_conformance.ledger_chain.operations import Built, Context, Labelled, Operation
from csi_conformance.ledger_chain.programs import SPL_TOKEN
from csi_conformance.ledger_chain.token import (
    MINT_SIZE,
    TokenInput,
    TokenOutput,
    approve,
    burn,
    create_ata,
    create_token_pool,
    freeze,
    initialize_mint,
    mint_to,
    revoke,
    spl_mint_to,
    transfer,
)
from solders.pubkey import Pubkey
from solders.system_program import CreateAccountParams, create_account
from solders.token.associated import get_associated_token_address

__all__ = ["Approve", "Burn", "CreateMint", "FreezeOrThaw", "MintTo", "Revoke", "SplMint", "TokenTransfer"]


def token_inputs(model: Model, hashes: tuple[bytes, ...]) -> tuple[list[LiveAccount], list[TokenInput]]:
    accounts = [model.live[h] for h in hashes]
    inputs = []
    for account in accounts:
        assert account.token is not None
        mirror = model.state_trees[account.tree]
        delegate = None if account.token.delegate is None else Pubkey.from_bytes(account.token.delegate)
        inputs.append(TokenInput(account.token.amount, account.tree, mirror.queue, account.leaf_index,
                                 mirror.tree.root_index, delegate, account.lamports))
    return accounts, inputs


def _proof(ctx: Context, accounts: list[LiveAccount]) -> dict | None:
    return ctx.prover.prove([ctx.model.account_proof(a) for a in accounts], []) if accounts else None


@dataclass(frozen=True)
class CreateMint(Operation):
    """An SPL mint (the treasurer its authority; optionally its freeze authority) and its token pool."""

    kind: ClassVar[str] = "create-mint"
    number: int
    decimals: int
    freezable: bool

    def build(self, ctx: Context) -> Built:
        payer, mint = ctx.keys.treasurer, ctx.keys.keypair(f"mint/{self.number}")
        created = create_account(CreateAccountParams(from_pubkey=payer.pubkey(), to_pubkey=mint.pubkey(),
                                                     lamports=ctx.runtime.rent(MINT_SIZE), space=MINT_SIZE,
                                                     owner=SPL_TOKEN))
        init = initialize_mint(mint.pubkey(), decimals=self.decimals, authority=payer.pubkey(),
                               freeze_authority=payer.pubkey() if self.freezable else None)

        def learn(model: Model) -> None:
            model.mints[mint.pubkey()] = Mint(mint.pubkey(), self.decimals, self.freezable)

        return Built((created, init, create_token_pool(payer.pubkey(), mint.pubkey())), (payer, mint), after=learn)


@dataclass(frozen=True)
class SplMint(Operation):
    """The treasurer mints SPL tokens (not compressed) into a user's associated token account."""

    kind: ClassVar[str] = "spl-mint"
    mint: Pubkey
    user: int
    amount: int

    def build(self, ctx: Context) -> Built:
        payer, owner = ctx.keys.treasurer, ctx.keys.user(self.user).pubkey()
        ix, ata = create_ata(payer.pubkey(), owner, self.mint)

        def learn(model: Model) -> None:
            model.spl[(owner, self.mint)] = model.spl.get((owner, self.mint), 0) + self.amount

        return Built((ix, spl_mint_to(self.mint, ata, payer.pubkey(), self.amount)), (payer,), after=learn)


@dataclass(frozen=True)
class MintTo(Operation):
    """Compressed tokens minted to users (the SPL supply goes into the pool)."""

    kind: ClassVar[str] = "mint-to"
    mint: Pubkey
    recipients: tuple[tuple[int, int], ...]
    """(user, amount) pairs."""
    tree: Pubkey

    def build(self, ctx: Context) -> Built:
        payer = ctx.keys.treasurer
        pairs = [(ctx.keys.user(user).pubkey(), amount) for user, amount in self.recipients]
        return Built((mint_to(payer.pubkey(), payer.pubkey(), self.mint, self.tree, pairs),), (payer,))


@dataclass(frozen=True)
class TokenTransfer(Labelled):
    """The token program's `transfer`: spend inputs into outputs, signed by their owner or their delegate;
    `compress` SPL tokens from the signer's token account, or `decompress` to it."""

    label: str
    mint: Pubkey
    user: int
    inputs: tuple[bytes, ...]
    outputs: tuple[tuple[int, int, Pubkey], ...]
    """(user, amount, tree) of each output."""
    owner: int | None = None
    """The inputs' owner when `user` signs as their delegate."""
    compress: int | None = None
    decompress: int | None = None


    def describe(self) -> str:
        return f"{self.label}: user {self.user}, {len(self.inputs)} in, {len(self.outputs)} out"

    def build(self, ctx: Context) -> Built:
        signer = ctx.keys.user(self.user)
        accounts, inputs = token_inputs(ctx.model, self.inputs)
        outputs = [TokenOutput(ctx.keys.user(u).pubkey(), amount, tree) for u, amount, tree in self.outputs]
        delegated = None if self.owner is None else ctx.keys.user(self.owner).pubkey()
        token_account = get_associated_token_address(signer.pubkey(), self.mint)
        ix = transfer(signer.pubkey(), signer.pubkey(), self.mint, inputs=inputs, outputs=outputs,
                      proof=_proof(ctx, accounts), compress=self.compress, decompress=self.decompress,
                      token_account=token_account, delegated_owner=delegated)
        instructions = (ix,)
        if self.decompress:
            instructions = (create_ata(signer.pubkey(), signer.pubkey(), self.mint)[0], ix)

        def learn(model: Model) -> None:
            key = (signer.pubkey(), self.mint)
            model.spl[key] = model.spl.get(key, 0) - (self.compress or 0) + (self.decompress or 0)

        return Built(instructions, (signer,), after=learn if self.compress or self.decompress else None)


@dataclass(frozen=True)
class Approve(Operation):
    kind: ClassVar[str] = "approve"
    mint: Pubkey
    user: int
    inputs: tuple[bytes, ...]
    delegate: int
    amount: int
    tree: Pubkey

    def build(self, ctx: Context) -> Built:
        signer = ctx.keys.user(self.user)
        accounts, inputs = token_inputs(ctx.model, self.inputs)
        ix = approve(signer.pubkey(), signer.pubkey(), self.mint, inputs=inputs, proof=_proof(ctx, accounts),
                     delegate=ctx.keys.user(self.delegate).pubkey(), amount=self.amount, tree=self.tree)
        return Built((ix,), (signer,))


@dataclass(frozen=True)
class Revoke(Operation):
    kind: ClassVar[str] = "revoke"
    mint: Pubkey
    user: int
    inputs: tuple[bytes, ...]
    tree: Pubkey

    def build(self, ctx: Context) -> Built:
        signer = ctx.keys.user(self.user)
        accounts, inputs = token_inputs(ctx.model, self.inputs)
        ix = revoke(signer.pubkey(), signer.pubkey(), self.mint, inputs=inputs, proof=_proof(ctx, accounts),
                    tree=self.tree)
        return Built((ix,), (signer,))


@dataclass(frozen=True)
class FreezeOrThaw(Operation):
    """The mint's freeze authority (the treasurer) freezes, or thaws, a user's accounts of the mint."""

    mint: Pubkey
    owner: int
    inputs: tuple[bytes, ...]
    tree: Pubkey
    thaw: bool = False

    @property
    def kind(self) -> str:  # type: ignore[override]
        return "thaw" if self.thaw else "freeze"

    def build(self, ctx: Context) -> Built:
        payer = ctx.keys.treasurer
        accounts, inputs = token_inputs(ctx.model, self.inputs)
        ix = freeze(payer.pubkey(), payer.pubkey(), self.mint, owner=ctx.keys.user(self.owner).pubkey(),
                    inputs=inputs, proof=_proof(ctx, accounts), tree=self.tree, thaw=self.thaw)
        return Built((ix,), (payer,))


@dataclass(frozen=True)
class Burn(Operation):
    kind: ClassVar[str] = "burn"
    mint: Pubkey
    user: int
    inputs: tuple[bytes, ...]
    amount: int
    tree: Pubkey

    def build(self, ctx: Context) -> Built:
        signer = ctx.keys.user(self.user)
        accounts, inputs = token_inputs(ctx.model, self.inputs)
        ix = burn(signer.pubkey(), signer.pubkey(), self.mint, inputs=inputs, proof=_proof(ctx, accounts),
                  amount=self.amount, tree=self.tree)
        return Built((ix,), (signer,))
