"""The instruction data of Light's programs as borsh layouts (borsh-construct), declared, not hand-packed.

Written from the programs' Rust sources of the release the CLI 0.18.0 ships, and from the
TypeScript of stateless.js 0.20.9 and compressed-token 0.20.9 (which send the same bytes); every
layout is shown right by the real program accepting what it builds (tests/ledger_chain). An
Anchor instruction's data is `sha256("global:<name>")[:8]`, then its arguments in borsh; the
light system program's `invoke` and the token program's instructions take one `Vec<u8>`
argument holding their own borsh struct.
"""

from __future__ import annotations

import hashlib
from functools import cache
from typing import Any

import construct
from borsh_construct import U8, U16, U32, U64, Bool, CStruct, Option, Vec
from borsh_construct import Bytes as BorshBytes

__all__ = [
    "APPROVE",
    "BURN",
    "FREEZE",
    "INIT_STATE_TREE",
    "INVOKE",
    "MINT_TO",
    "NULLIFY",
    "REVOKE",
    "TOKEN_TRANSFER",
    "UPDATE_ADDRESS_TREE",
    "anchor_data",
    "discriminator",
    "vec_argument",
]

KEY = construct.Bytes(32)
PROOF = CStruct("a" / construct.Bytes(32), "b" / construct.Bytes(64), "c" / construct.Bytes(32))

COMPRESSED_ACCOUNT = CStruct(
    "owner" / KEY,
    "lamports" / U64,
    "address" / Option(KEY),
    "data" / Option(CStruct("discriminator" / construct.Bytes(8), "data" / BorshBytes, "data_hash" / KEY)),
)
MERKLE_CONTEXT = CStruct(
    "merkle_tree_pubkey_index" / U8,
    "nullifier_queue_pubkey_index" / U8,
    "leaf_index" / U32,
    "queue_index" / Option(CStruct("queue_id" / U8, "index" / U16)),
)

INVOKE = CStruct(
    "proof" / Option(PROOF),
    "input_compressed_accounts_with_merkle_context" / Vec(CStruct(
        "compressed_account" / COMPRESSED_ACCOUNT,
        "merkle_context" / MERKLE_CONTEXT,
        "root_index" / U16,
        "read_only" / Bool,
    )),
    "output_compressed_accounts" / Vec(CStruct("compressed_account" / COMPRESSED_ACCOUNT, "merkle_tree_index" / U8)),
    "relay_fee" / Option(U64),
    "new_address_params" / Vec(CStruct(
        "seed" / KEY,
        "address_queue_account_index" / U8,
        "address_merkle_tree_account_index" / U8,
        "address_merkle_tree_root_index" / U16,
    )),
    "compress_or_decompress_lamports" / Option(U64),
    "is_compress" / Bool,
)
"""`light_system_program::InstructionDataInvoke`."""

INPUT_TOKEN_DATA = CStruct(
    "amount" / U64,
    "delegate_index" / Option(U8),
    "merkle_context" / MERKLE_CONTEXT,
    "root_index" / U16,
    "lamports" / Option(U64),
    "tlv" / Option(BorshBytes),
)
CPI_CONTEXT = CStruct("set_context" / Bool, "first_set_context" / Bool, "cpi_context_account_index" / U8)
DELEGATED_TRANSFER = CStruct("owner" / KEY, "delegate_change_account_index" / Option(U8))

TOKEN_TRANSFER = CStruct(
    "proof" / Option(PROOF),
    "mint" / KEY,
    "delegated_transfer" / Option(DELEGATED_TRANSFER),
    "input_token_data_with_context" / Vec(INPUT_TOKEN_DATA),
    "output_compressed_accounts" / Vec(CStruct(
        "owner" / KEY, "amount" / U64, "lamports" / Option(U64), "merkle_tree_index" / U8, "tlv" / Option(BorshBytes),
    )),
    "is_compress" / Bool,
    "compress_or_decompress_amount" / Option(U64),
    "cpi_context" / Option(CPI_CONTEXT),
    "lamports_change_account_merkle_tree_index" / Option(U8),
)
"""`light_compressed_token::CompressedTokenInstructionDataTransfer` (transfer, compress, decompress)."""

APPROVE = CStruct(
    "proof" / PROOF, "mint" / KEY, "input_token_data_with_context" / Vec(INPUT_TOKEN_DATA),
    "cpi_context" / Option(CPI_CONTEXT), "delegate" / KEY, "delegated_amount" / U64,
    "delegate_merkle_tree_index" / U8, "change_account_merkle_tree_index" / U8, "delegate_lamports" / Option(U64),
)
REVOKE = CStruct(
    "proof" / PROOF, "mint" / KEY, "input_token_data_with_context" / Vec(INPUT_TOKEN_DATA),
    "cpi_context" / Option(CPI_CONTEXT), "output_account_merkle_tree_index" / U8,
)
FREEZE = CStruct(
    "proof" / PROOF, "owner" / KEY, "input_token_data_with_context" / Vec(INPUT_TOKEN_DATA),
    "cpi_context" / Option(CPI_CONTEXT), "outputs_merkle_tree_index" / U8,
)
"""Freeze and thaw take the same struct."""
BURN = CStruct(
    "proof" / PROOF, "input_token_data_with_context" / Vec(INPUT_TOKEN_DATA), "cpi_context" / Option(CPI_CONTEXT),
    "burn_amount" / U64, "change_account_merkle_tree_index" / U8, "delegated_transfer" / Option(DELEGATED_TRANSFER),
)

MINT_TO = CStruct("public_keys" / Vec(KEY), "amounts" / Vec(U64), "lamports" / Option(U64))
"""`mint_to`'s three arguments."""

NULLIFY = CStruct(
    "bump" / U8, "change_log_indices" / Vec(U64), "leaves_queue_indices" / Vec(U16), "indices" / Vec(U64),
    "proofs" / Vec(Vec(KEY)),
)
"""`light_registry::nullify`'s arguments (the forester zeroes spent leaves)."""

UPDATE_ADDRESS_TREE = CStruct(
    "bump" / U8, "changelog_index" / U16, "indexed_changelog_index" / U16, "value" / U16,
    "low_address_index" / U64, "low_address_value" / KEY, "low_address_next_index" / U64,
    "low_address_next_value" / KEY, "low_address_proof" / construct.Array(16, KEY),
)
"""`light_registry::update_address_merkle_tree`'s arguments (the forester inserts a queued address)."""

INIT_STATE_TREE = CStruct(
    "bump" / U8, "program_owner" / Option(KEY), "forester" / Option(KEY),
    "merkle_tree_config" / CStruct(
        "height" / U32, "changelog_size" / U64, "roots_size" / U64, "canopy_depth" / U64,
        "network_fee" / Option(U64), "rollover_threshold" / Option(U64), "close_threshold" / Option(U64),
    ),
    "queue_config" / CStruct("capacity" / U16, "sequence_threshold" / U64, "network_fee" / Option(U64)),
)
"""`light_registry::initialize_state_merkle_tree`'s arguments (anyone may create a tree)."""


@cache
def discriminator(name: str) -> bytes:
    """Anchor's instruction discriminator: the first 8 bytes of sha256("global:<name>")."""
    return hashlib.sha256(f"global:{name}".encode()).digest()[:8]


def anchor_data(name: str, layout: construct.Construct, value: dict[str, Any]) -> bytes:
    """An Anchor instruction whose arguments are `layout`."""
    return discriminator(name) + layout.build(value)


def vec_argument(name: str, layout: construct.Construct, value: dict[str, Any]) -> bytes:
    """An Anchor instruction with one `inputs: Vec<u8>` argument holding `layout` (invoke, token transfer…)."""
    inner = layout.build(value)
    return discriminator(name) + len(inner).to_bytes(4, "little") + inner
