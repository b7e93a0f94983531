"""The light system program's invoke instructions, read for what the indexer cannot find elsewhere:
the contents of the accounts they write (owner, lamports, address, data).

Four formats (discriminators of Light's `program-libs/compressed-account/src/discriminators.rs`,
layouts of its `instruction_data/{data,invoke_cpi,with_readonly,with_account_info}.rs`), read with
`borsh-construct` and required to consume their bytes exactly:

- `invoke` and `invoke_cpi`: discriminator, u32 byte length, borsh `InstructionDataInvoke(Cpi)`;
  9 and 11 leading system accounts;
- `invoke_cpi_with_read_only` and `invoke_cpi_with_account_info`: discriminator, borsh struct (no
  length); 11 system accounts in mode 0, else 6, +1 with lamports, +1 when decompressing, +1 with
  a CPI context. Outputs of the account-info format are `account_infos[].output`, owned by the
  invoking program.

Which accounts follow the system accounts is what the outputs' `merkle_tree_index` points into
(Light's `sdk-libs/event/src/parse.rs`).
"""

from __future__ import annotations

from dataclasses import dataclass

import construct
from borsh_construct import U8, U16, U32, U64, Bool, CStruct, Option, Vec
from borsh_construct import Bytes as BorshBytes
from csi_conformance.ledger_ingest.events import (
    OUTPUT_COMPRESSED_ACCOUNT,
    EventError,
    OutputCompressedAccount,
    output_compressed_account,
    parse_event,
)

__all__ = ["INVOKE_DISCRIMINATORS", "SystemInstruction", "parse_system_instruction"]

_KEY = construct.Bytes(32)
_DISCRIMINATOR = construct.Bytes(8)

_PROOF = CStruct("a" / _KEY, "b" / construct.Bytes(64), "c" / _KEY)
_MERKLE_CONTEXT = CStruct("merkle_tree_pubkey_index" / U8, "queue_pubkey_index" / U8, "leaf_index" / U32,
                          "prove_by_index" / Bool)
_COMPRESSED_ACCOUNT = CStruct("owner" / _KEY, "lamports" / U64, "address" / Option(_KEY),
                              "data" / Option(CStruct("discriminator" / _DISCRIMINATOR, "data" / BorshBytes,
                                                      "data_hash" / _KEY)))
_PACKED_INPUT = CStruct("compressed_account" / _COMPRESSED_ACCOUNT, "merkle_context" / _MERKLE_CONTEXT,
                        "root_index" / U16, "read_only" / Bool)
_NEW_ADDRESS = CStruct("seed" / _KEY, "address_queue_account_index" / U8, "address_merkle_tree_account_index" / U8,
                       "address_merkle_tree_root_index" / U16)
_NEW_ADDRESS_ASSIGNED = CStruct("seed" / _KEY, "address_queue_account_index" / U8,
                                "address_merkle_tree_account_index" / U8, "address_merkle_tree_root_index" / U16,
                                "assigned_to_account" / Bool, "assigned_account_index" / U8)
_CPI_CONTEXT = CStruct("set_context" / Bool, "first_set_context" / Bool, "cpi_context_account_index" / U8)
_READ_ONLY_ADDRESS = CStruct("address" / _KEY, "address_merkle_tree_root_index" / U16,
                             "address_merkle_tree_account_index" / U8)
_READ_ONLY_ACCOUNT = CStruct("account_hash" / _KEY, "merkle_context" / _MERKLE_CONTEXT, "root_index" / U16)

_INVOKE = CStruct(
    "proof" / Option(_PROOF), "inputs" / Vec(_PACKED_INPUT), "outputs" / Vec(OUTPUT_COMPRESSED_ACCOUNT),
    "relay_fee" / Option(U64), "new_address_params" / Vec(_NEW_ADDRESS),
    "compress_or_decompress_lamports" / Option(U64), "is_compress" / Bool,
)
_INVOKE_CPI = CStruct(
    "proof" / Option(_PROOF), "new_address_params" / Vec(_NEW_ADDRESS), "inputs" / Vec(_PACKED_INPUT),
    "outputs" / Vec(OUTPUT_COMPRESSED_ACCOUNT), "relay_fee" / Option(U64),
    "compress_or_decompress_lamports" / Option(U64), "is_compress" / Bool, "cpi_context" / Option(_CPI_CONTEXT),
)
_HEAD = (
    "mode" / U8, "bump" / U8, "invoking_program_id" / _KEY, "compress_or_decompress_lamports" / U64,
    "is_compress" / Bool, "with_cpi_context" / Bool, "with_transaction_hash" / Bool, "cpi_context" / _CPI_CONTEXT,
    "proof" / Option(_PROOF), "new_address_params" / Vec(_NEW_ADDRESS_ASSIGNED),
)
_IN_ACCOUNT = CStruct("discriminator" / _DISCRIMINATOR, "data_hash" / _KEY, "merkle_context" / _MERKLE_CONTEXT,
                      "root_index" / U16, "lamports" / U64, "address" / Option(_KEY))
_WITH_READ_ONLY = CStruct(
    *_HEAD, "inputs" / Vec(_IN_ACCOUNT), "outputs" / Vec(OUTPUT_COMPRESSED_ACCOUNT),
    "read_only_addresses" / Vec(_READ_ONLY_ADDRESS), "read_only_accounts" / Vec(_READ_ONLY_ACCOUNT),
)
_ACCOUNT_INFO = CStruct(
    "address" / Option(_KEY),
    "input" / Option(CStruct("discriminator" / _DISCRIMINATOR, "data_hash" / _KEY, "merkle_context" / _MERKLE_CONTEXT,
                             "root_index" / U16, "lamports" / U64)),
    "output" / Option(CStruct("discriminator" / _DISCRIMINATOR, "data_hash" / _KEY,
                              "output_merkle_tree_index" / U8, "lamports" / U64, "data" / BorshBytes)),
)
_WITH_ACCOUNT_INFO = CStruct(
    *_HEAD, "account_infos" / Vec(_ACCOUNT_INFO), "read_only_addresses" / Vec(_READ_ONLY_ADDRESS),
    "read_only_accounts" / Vec(_READ_ONLY_ACCOUNT),
)

INVOKE_DISCRIMINATORS = {
    bytes([26, 16, 169, 7, 21, 202, 242, 25]): "invoke",
    bytes([49, 212, 191, 129, 39, 194, 43, 196]): "invoke_cpi",
    bytes([86, 47, 163, 166, 21, 223, 92, 8]): "invoke_cpi_with_read_only",
    bytes([228, 34, 128, 84, 47, 139, 86, 240]): "invoke_cpi_with_account_info",
}
"""The system instructions that carry compressed state, by their 8-byte discriminator."""


@dataclass(frozen=True, slots=True)
class SystemInstruction:
    """What the indexer needs of one light system invoke instruction."""

    kind: str
    outputs: tuple[OutputCompressedAccount, ...]
    """The accounts it writes itself (a CPI context's parked outputs come with `insert_into_queues`)."""
    system_accounts: int
    """How many leading accounts are the program's own; the outputs' tree indices count from there."""
    writes_cpi_context: bool
    """It only parks its state in a CPI context account; a later instruction executes it."""
    carries_state: bool
    """It has inputs, outputs or new addresses, or executes a CPI context: the program writes queues."""


def _length_prefixed(data: bytes, kind: str) -> bytes:
    if len(data) < 12:
        raise EventError(f"{kind} instruction data has {len(data)} bytes: no room for its length")
    length = int.from_bytes(data[8:12], "little")
    if length != len(data) - 12:
        raise EventError(f"{kind} states {length} bytes of data but {len(data) - 12} follow")
    return data[12:]


def _mode_accounts(body: construct.Container) -> int:
    if body.mode == 0:
        return 11
    lamports = body.compress_or_decompress_lamports > 0
    return 6 + lamports + (lamports and not body.is_compress) + body.with_cpi_context


def _sets_context(cpi_context: construct.Container | None) -> bool:
    return cpi_context is not None and (cpi_context.set_context or cpi_context.first_set_context)


def parse_system_instruction(data: bytes) -> SystemInstruction:
    """One invoke-family instruction of the light system program; `EventError` when its bytes do not
    follow its layout, or its discriminator is none of the four."""
    kind = INVOKE_DISCRIMINATORS.get(bytes(data[:8]))
    if kind is None:
        raise EventError(f"light system instruction with discriminator {bytes(data[:8]).hex()} is not an invoke")
    if kind in ("invoke", "invoke_cpi"):
        layout = _INVOKE if kind == "invoke" else _INVOKE_CPI
        body = parse_event(layout, _length_prefixed(data, kind), kind, exact=True)
        outputs = tuple(output_compressed_account(item) for item in body.outputs)
        cpi_context = body.get("cpi_context")
        executes_context = cpi_context is not None and not _sets_context(cpi_context)
        return SystemInstruction(kind, outputs, 9 if kind == "invoke" else 11, _sets_context(cpi_context),
                                 bool(body.inputs or outputs or body.new_address_params or executes_context))
    if kind == "invoke_cpi_with_read_only":
        body = parse_event(_WITH_READ_ONLY, data[8:], kind, exact=True)
        outputs = tuple(output_compressed_account(item) for item in body.outputs)
        has_inputs = bool(body.inputs)
    else:
        body = parse_event(_WITH_ACCOUNT_INFO, data[8:], kind, exact=True)
        outputs = tuple(
            OutputCompressedAccount(body.invoking_program_id, info.output.lamports, info.address,
                                    info.output.discriminator, info.output.data, info.output.data_hash,
                                    info.output.output_merkle_tree_index)
            for info in body.account_infos if info.output is not None
        )
        has_inputs = any(info.input is not None for info in body.account_infos)
    sets = body.with_cpi_context and _sets_context(body.cpi_context)
    executes_context = body.with_cpi_context and not sets
    return SystemInstruction(kind, outputs, _mode_accounts(body), sets,
                             bool(has_inputs or outputs or body.new_address_params or executes_context))
