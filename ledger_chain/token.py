"""The compressed token program's instructions (light_compressed_token), and the SPL ones a mint needs.

Every compressed token account is owned by the token program and carries `TokenData` (mint,
owner, amount, delegate, state). An input names its amount, its delegate (by its position among
the remaining accounts) and its merkle context; the program rebuilds the TokenData and the hash
from them and the signer, so a wrong owner, delegate or state makes the proof fail. Account
metas follow the program's `#[derive(Accounts)]` structs; an optional account left out is the
program's own id. A mint is an SPL mint whose tokens the program keeps in a token pool (an SPL
token account at the PDA `["pool", mint]`, owned by the program's `cpi_authority`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from borsh_construct import U8, U64, CStruct, Option
from construct import Bytes, Const
from csi_conformance.ledger_chain.instructions import Remaining, metas, proof_value
from csi_conformance.ledger_chain.layouts import (
    APPROVE,
    BURN,
    FREEZE,
    MINT_TO,
    REVOKE,
    TOKEN_TRANSFER,
    anchor_data,
    discriminator,
    vec_argument,
)
from csi_conformance.ledger_chain.programs import (
    ACCOUNT_COMPRESSION,
    COMPRESSED_TOKEN,
    LIGHT_SYSTEM,
    NOOP,
    SOLANA_SYSTEM,
    SPL_TOKEN,
    pda,
    token_pool,
)
from solders.instruction import Instruction
from solders.pubkey import Pubkey
from solders.token.associated import get_associated_token_address

__all__ = ["MINT_SIZE", "TokenInput", "TokenOutput", "approve", "burn", "create_ata", "create_token_pool",
           "freeze", "initialize_mint", "mint_to", "revoke", "spl_mint_to", "transfer"]

MINT_SIZE = 82
ASSOCIATED_TOKEN = Pubkey.from_string("ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL")
INITIALIZE_MINT2 = CStruct("tag" / Const(20, U8), "decimals" / U8, "mint_authority" / Bytes(32),
                           "freeze_authority" / Option(Bytes(32)))
SPL_MINT_TO = CStruct("tag" / Const(7, U8), "amount" / U64)


@dataclass(frozen=True, slots=True)
class TokenInput:
    """A compressed token account to spend: amount, delegate, where its leaf is, the root index."""

    amount: int
    tree: Pubkey
    queue: Pubkey
    leaf_index: int
    root_index: int
    delegate: Pubkey | None = None
    lamports: int = 0


@dataclass(frozen=True, slots=True)
class TokenOutput:
    owner: Pubkey
    amount: int
    tree: Pubkey


def _inputs(remaining: Remaining, inputs: Sequence[TokenInput]) -> list[dict]:
    packed = []
    for item in inputs:
        context = {"merkle_tree_pubkey_index": remaining.index(item.tree),
                   "nullifier_queue_pubkey_index": remaining.index(item.queue), "leaf_index": item.leaf_index,
                   "queue_index": None}
        packed.append({"amount": item.amount, "delegate_index": None if item.delegate is None
                       else remaining.index(item.delegate), "merkle_context": context,
                       "root_index": item.root_index, "lamports": item.lamports or None, "tlv": None})
    return packed


def _cpi_metas(payer: Pubkey, authority: Pubkey) -> list[tuple[Pubkey, bool, bool]]:
    """The accounts every token instruction that calls the light system program starts with."""
    return [(payer, True, True), (authority, True, False), (pda("token_cpi_authority")[0], False, False),
            (LIGHT_SYSTEM, False, False), (pda("registered_system_program")[0], False, False), (NOOP, False, False),
            (pda("system_cpi_authority")[0], False, False), (ACCOUNT_COMPRESSION, False, False)]


# ----------------------------------------------------------------------------- SPL and the pool


def initialize_mint(mint: Pubkey, *, decimals: int, authority: Pubkey, freeze_authority: Pubkey | None) -> Instruction:
    """SPL `InitializeMint2` (the mint account is created, rent-exempt, just before)."""
    data = INITIALIZE_MINT2.build({"decimals": decimals, "mint_authority": bytes(authority),
                                   "freeze_authority": None if freeze_authority is None else bytes(freeze_authority)})
    return Instruction(SPL_TOKEN, data, metas((mint, False, True)))


def create_ata(payer: Pubkey, owner: Pubkey, mint: Pubkey) -> tuple[Instruction, Pubkey]:
    """The associated token account of `owner` for `mint`, created (idempotent form)."""
    ata = get_associated_token_address(owner, mint)
    accounts = metas((payer, True, True), (ata, False, True), (owner, False, False), (mint, False, False),
                     (SOLANA_SYSTEM, False, False), (SPL_TOKEN, False, False))
    return Instruction(ASSOCIATED_TOKEN, bytes([1]), accounts), ata


def spl_mint_to(mint: Pubkey, destination: Pubkey, authority: Pubkey, amount: int) -> Instruction:
    return Instruction(SPL_TOKEN, SPL_MINT_TO.build({"amount": amount}),
                       metas((mint, False, True), (destination, False, True), (authority, True, False)))


def create_token_pool(payer: Pubkey, mint: Pubkey) -> Instruction:
    accounts = metas((payer, True, True), (token_pool(mint), False, True), (SOLANA_SYSTEM, False, False),
                     (mint, False, True), (SPL_TOKEN, False, False), (pda("token_cpi_authority")[0], False, False))
    return Instruction(COMPRESSED_TOKEN, discriminator("create_token_pool"), accounts)


# ----------------------------------------------------------------------------- compressed tokens


def mint_to(payer: Pubkey, authority: Pubkey, mint: Pubkey, tree: Pubkey, recipients: Sequence[tuple[Pubkey, int]],
            *, lamports: int | None = None) -> Instruction:
    """Mint SPL tokens into the pool and the same amounts as compressed accounts of the recipients;
    with `lamports`, each of those accounts also holds that many (compressed from the payer)."""
    data = anchor_data("mint_to", MINT_TO, {"public_keys": [bytes(owner) for owner, _ in recipients],
                                           "amounts": [amount for _, amount in recipients], "lamports": lamports})
    sol_pool = pda("sol_pool")[0] if lamports else COMPRESSED_TOKEN
    accounts = metas(
        (payer, True, True), (authority, True, False), (pda("token_cpi_authority")[0], False, False),
        (mint, False, True),
        (token_pool(mint), False, True), (SPL_TOKEN, False, False), (LIGHT_SYSTEM, False, False),
        (pda("registered_system_program")[0], False, False), (NOOP, False, False),
        (pda("system_cpi_authority")[0], False, False), (ACCOUNT_COMPRESSION, False, False), (tree, False, True),
        (COMPRESSED_TOKEN, False, False), (SOLANA_SYSTEM, False, False), (sol_pool, False, bool(lamports)),
    )
    return Instruction(COMPRESSED_TOKEN, data, accounts)


def transfer(payer: Pubkey, authority: Pubkey, mint: Pubkey, *, inputs: Sequence[TokenInput],
             outputs: Sequence[TokenOutput], proof: dict | None, compress: int | None = None,
             decompress: int | None = None, token_account: Pubkey | None = None,
             delegated_owner: Pubkey | None = None) -> Instruction:
    """Spend token accounts into outputs; `compress` moves SPL tokens from `token_account` into the
    pool, `decompress` from the pool to it. A delegate signing names the inputs' owner
    (`delegated_owner`); the first output back to that owner stays delegated (the change). Outputs
    are written in tree order, as the light system program requires."""
    remaining = Remaining()
    packed_inputs = _inputs(remaining, inputs)
    packed_outputs = sorted(({"owner": bytes(item.owner), "amount": item.amount, "lamports": None,
                              "merkle_tree_index": remaining.index(item.tree), "tlv": None} for item in outputs),
                            key=lambda output: output["merkle_tree_index"])
    amount = compress if compress is not None else decompress
    delegated = None
    if delegated_owner is not None:
        change = next((i for i, o in enumerate(packed_outputs) if o["owner"] == bytes(delegated_owner)), None)
        delegated = {"owner": bytes(delegated_owner), "delegate_change_account_index": change}
    data = vec_argument("transfer", TOKEN_TRANSFER, {
        "proof": proof_value(proof), "mint": bytes(mint), "delegated_transfer": delegated,
        "input_token_data_with_context": packed_inputs, "output_compressed_accounts": packed_outputs,
        "is_compress": compress is not None, "compress_or_decompress_amount": amount, "cpi_context": None,
        "lamports_change_account_merkle_tree_index": None})
    moving = amount is not None
    accounts = metas(*_cpi_metas(payer, authority), (COMPRESSED_TOKEN, False, False),
                     (token_pool(mint) if moving else COMPRESSED_TOKEN, False, moving),
                     (token_account if moving and token_account else COMPRESSED_TOKEN, False, moving),
                     (SPL_TOKEN if moving else COMPRESSED_TOKEN, False, False), (SOLANA_SYSTEM, False, False))
    return Instruction(COMPRESSED_TOKEN, data, accounts + remaining.metas())


def approve(payer: Pubkey, owner: Pubkey, mint: Pubkey, *, inputs: Sequence[TokenInput], proof: dict,
            delegate: Pubkey, amount: int, tree: Pubkey) -> Instruction:
    """Delegate `amount` of the inputs to `delegate`; the rest comes back undelegated (both in `tree`)."""
    remaining = Remaining()
    packed = _inputs(remaining, inputs)
    index = remaining.index(tree)
    data = vec_argument("approve", APPROVE, {
        "proof": proof_value(proof), "mint": bytes(mint), "input_token_data_with_context": packed,
        "cpi_context": None, "delegate": bytes(delegate), "delegated_amount": amount,
        "delegate_merkle_tree_index": index, "change_account_merkle_tree_index": index, "delegate_lamports": None})
    accounts = metas(*_cpi_metas(payer, owner), (COMPRESSED_TOKEN, False, False), (SOLANA_SYSTEM, False, False))
    return Instruction(COMPRESSED_TOKEN, data, accounts + remaining.metas())


def revoke(payer: Pubkey, owner: Pubkey, mint: Pubkey, *, inputs: Sequence[TokenInput], proof: dict,
           tree: Pubkey) -> Instruction:
    """Merge delegated inputs into one undelegated account."""
    remaining = Remaining()
    packed = _inputs(remaining, inputs)
    data = vec_argument("revoke", REVOKE, {
        "proof": proof_value(proof), "mint": bytes(mint), "input_token_data_with_context": packed,
        "cpi_context": None, "output_account_merkle_tree_index": remaining.index(tree)})
    accounts = metas(*_cpi_metas(payer, owner), (COMPRESSED_TOKEN, False, False), (SOLANA_SYSTEM, False, False))
    return Instruction(COMPRESSED_TOKEN, data, accounts + remaining.metas())


def freeze(payer: Pubkey, authority: Pubkey, mint: Pubkey, *, owner: Pubkey, inputs: Sequence[TokenInput],
           proof: dict, tree: Pubkey, thaw: bool = False) -> Instruction:
    """Freeze (or thaw) an owner's accounts of a mint: signed by the mint's freeze authority."""
    remaining = Remaining()
    packed = _inputs(remaining, inputs)
    data = vec_argument("thaw" if thaw else "freeze", FREEZE, {
        "proof": proof_value(proof), "owner": bytes(owner), "input_token_data_with_context": packed,
        "cpi_context": None, "outputs_merkle_tree_index": remaining.index(tree)})
    accounts = metas(*_cpi_metas(payer, authority), (COMPRESSED_TOKEN, False, False), (SOLANA_SYSTEM, False, False),
                     (mint, False, False))
    return Instruction(COMPRESSED_TOKEN, data, accounts + remaining.metas())


def burn(payer: Pubkey, authority: Pubkey, mint: Pubkey, *, inputs: Sequence[TokenInput], proof: dict, amount: int,
         tree: Pubkey, delegated_owner: Pubkey | None = None) -> Instruction:
    """Burn `amount` of the inputs (and as much SPL supply from the pool); the change stays compressed."""
    remaining = Remaining()
    packed = _inputs(remaining, inputs)
    delegated = None if delegated_owner is None else {"owner": bytes(delegated_owner),
                                                      "delegate_change_account_index": 0}
    data = vec_argument("burn", BURN, {
        "proof": proof_value(proof), "input_token_data_with_context": packed, "cpi_context": None,
        "burn_amount": amount, "change_account_merkle_tree_index": remaining.index(tree),
        "delegated_transfer": delegated})
    accounts = metas(
        (payer, True, True), (authority, True, False), (pda("token_cpi_authority")[0], False, False),
        (mint, False, True),
        (token_pool(mint), False, True), (SPL_TOKEN, False, False), (LIGHT_SYSTEM, False, False),
        (pda("registered_system_program")[0], False, False), (NOOP, False, False),
        (pda("system_cpi_authority")[0], False, False), (ACCOUNT_COMPRESSION, False, False),
        (COMPRESSED_TOKEN, False, False), (SOLANA_SYSTEM, False, False),
    )
    return Instruction(COMPRESSED_TOKEN, data, accounts + remaining.metas())
