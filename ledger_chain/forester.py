"""The forester's two instructions (light_registry): zero a spent account's leaf, insert a queued address.

A user transaction only queues: a spent account's hash goes into its tree's nullifier queue, a
new address into the address queue. A forester then updates the trees, one element an
instruction, with a merkle proof of the first 16 levels (height 26 minus the canopy of 10 the
tree keeps on-chain) against the tree's current state, the latest changelog entry's index, and
the cell of the queue that holds the element. The registry checks that the signer is the tree's
forester (`AccessMetadata.forester`), then calls account compression as its `cpi_authority`;
account compression writes a `MerkleTreeEvent` (V2 nullifier, V3 indexed-tree update) through
the noop program, which indexers read.
"""

from __future__ import annotations

from collections.abc import Sequence

from csi_conformance.ledger_chain.instructions import metas
from csi_conformance.ledger_chain.layouts import NULLIFY, UPDATE_ADDRESS_TREE, anchor_data
from csi_conformance.ledger_chain.programs import ACCOUNT_COMPRESSION, NOOP, REGISTRY, pda
from solders.instruction import Instruction
from solders.pubkey import Pubkey

__all__ = ["PROOF_LEVELS", "nullify", "update_address_tree"]

PROOF_LEVELS = 16
"""Levels of a forester's merkle proof: the tree's height (26) minus its canopy depth (10)."""


def _proof(path: Sequence[bytes]) -> list[bytes]:
    if len(path) < PROOF_LEVELS:
        raise ValueError(f"a forester's proof needs {PROOF_LEVELS} levels, got {len(path)}")
    return [bytes(node) for node in path[:PROOF_LEVELS]]


def nullify(*, forester: Pubkey, tree: Pubkey, queue: Pubkey, changelog_index: int, queue_index: int,
            leaf_index: int, path: Sequence[bytes]) -> Instruction:
    """Zero the leaf `leaf_index` of `tree`, whose hash the queue holds in cell `queue_index`."""
    authority, bump = pda("registry_cpi_authority")
    data = anchor_data("nullify", NULLIFY, {
        "bump": bump, "change_log_indices": [changelog_index], "leaves_queue_indices": [queue_index],
        "indices": [leaf_index], "proofs": [_proof(path)]})
    accounts = metas(
        (REGISTRY, False, False),  # registered_forester_pda: none (the tree names its forester)
        (forester, True, False), (authority, False, False), (pda("registered_registry_program")[0], False, False),
        (ACCOUNT_COMPRESSION, False, False), (NOOP, False, False), (tree, False, True), (queue, False, True),
    )
    return Instruction(REGISTRY, data, accounts)


def update_address_tree(*, forester: Pubkey, tree: Pubkey, queue: Pubkey, changelog_index: int,
                        indexed_changelog_index: int, queue_index: int, low_index: int, low_value: int,
                        low_next_index: int, low_next_value: int, path: Sequence[bytes]) -> Instruction:
    """Insert the address the queue holds in cell `queue_index` after its low element."""
    authority, bump = pda("registry_cpi_authority")
    data = anchor_data("update_address_merkle_tree", UPDATE_ADDRESS_TREE, {
        "bump": bump, "changelog_index": changelog_index, "indexed_changelog_index": indexed_changelog_index,
        "value": queue_index, "low_address_index": low_index, "low_address_value": low_value.to_bytes(32, "big"),
        "low_address_next_index": low_next_index, "low_address_next_value": low_next_value.to_bytes(32, "big"),
        "low_address_proof": _proof(path)})
    accounts = metas(
        (REGISTRY, False, True),  # registered_forester_pda: none
        (forester, True, False), (authority, False, False), (pda("registered_registry_program")[0], False, False),
        (ACCOUNT_COMPRESSION, False, False), (queue, False, True), (tree, False, True), (NOOP, False, False),
    )
    return Instruction(REGISTRY, data, accounts)
