"""`light_system_program::invoke`: spend compressed accounts, create new ones and new addresses,
compress and decompress SOL, all in one instruction signed by the accounts' owner.

Account metas (instructions/invoke.rs of the program): fee payer, authority (the owner of every
input), the registered program PDA, noop, the system program's `cpi_authority` PDA, account
compression, the sol pool PDA (or the program id, standing for "none"), the decompression
recipient (or the program id), the system program; then the trees and queues the indices point
into. Accounts created by a plain `invoke` carry no data: only a program (through `invoke_cpi`)
may own accounts with data.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from csi_conformance.ledger_chain.instructions import (
    CompressedAccount,
    InputAccount,
    Remaining,
    account_value,
    metas,
    proof_value,
)
from csi_conformance.ledger_chain.layouts import INVOKE, vec_argument
from csi_conformance.ledger_chain.programs import (
    ACCOUNT_COMPRESSION,
    ADDRESS_QUEUE,
    ADDRESS_TREE,
    LIGHT_SYSTEM,
    NOOP,
    SOLANA_SYSTEM,
    pda,
)
from solders.instruction import Instruction
from solders.pubkey import Pubkey

__all__ = ["NewAddress", "Output", "invoke"]


@dataclass(frozen=True, slots=True)
class Output:
    """An account to create: its owner, lamports, address (a new one, or an input's) and state tree."""

    owner: Pubkey
    lamports: int
    tree: Pubkey
    address: bytes | None = None


@dataclass(frozen=True, slots=True)
class NewAddress:
    """A new address: its seed (the address is H2F(address tree ‖ seed)) and the address tree root index."""

    seed: bytes
    root_index: int
    tree: Pubkey = ADDRESS_TREE
    queue: Pubkey = ADDRESS_QUEUE


def invoke(*, payer: Pubkey, authority: Pubkey, inputs: Sequence[InputAccount] = (), outputs: Sequence[Output] = (),
           new_addresses: Sequence[NewAddress] = (), proof: dict | None = None, compress: int | None = None,
           decompress: int | None = None, recipient: Pubkey | None = None) -> Instruction:
    """The `invoke` instruction. `compress` lamports move from the payer into the sol pool; `decompress`
    lamports from the pool to `recipient`. Outputs are written in tree order, as the program requires."""
    if compress is not None and decompress is not None:
        raise ValueError("an invoke either compresses or decompresses lamports, not both")
    remaining = Remaining()
    packed_inputs = [{"compressed_account": account_value(item.account), "merkle_context": remaining.context(item),
                      "root_index": item.root_index, "read_only": False} for item in inputs]
    packed_addresses = [{"seed": item.seed, "address_queue_account_index": remaining.index(item.queue),
                         "address_merkle_tree_account_index": remaining.index(item.tree),
                         "address_merkle_tree_root_index": item.root_index} for item in new_addresses]
    packed_outputs = sorted(
        ({"compressed_account": account_value(CompressedAccount(item.owner, item.lamports, item.address)),
          "merkle_tree_index": remaining.index(item.tree)} for item in outputs),
        key=lambda output: output["merkle_tree_index"])
    lamports = compress if compress is not None else decompress
    data = vec_argument("invoke", INVOKE, {
        "proof": proof_value(proof), "input_compressed_accounts_with_merkle_context": packed_inputs,
        "output_compressed_accounts": packed_outputs, "relay_fee": None, "new_address_params": packed_addresses,
        "compress_or_decompress_lamports": lamports, "is_compress": compress is not None,
    })
    sol_pool = pda("sol_pool")[0] if lamports is not None else LIGHT_SYSTEM
    accounts = metas(
        (payer, True, True), (authority, True, False), (pda("registered_system_program")[0], False, False),
        (NOOP, False, False), (pda("system_cpi_authority")[0], False, False), (ACCOUNT_COMPRESSION, False, False),
        (sol_pool, False, lamports is not None), (recipient or LIGHT_SYSTEM, False, recipient is not None),
        (SOLANA_SYSTEM, False, False),
    )
    return Instruction(LIGHT_SYSTEM, data, accounts + remaining.metas())

