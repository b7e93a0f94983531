"""Blocks as a Solana node answers `getBlock` (transactionDetails full, base64, version 0 allowed).

A block file is that `result`, named by its slot (as `ledger_ingest.read_paths` reads it):
`previousBlockhash`, `blockhash`, `parentSlot`, the transactions with their meta, `rewards`,
`blockTime`, `blockHeight`. A transaction's meta is what the runtime recorded: `err` and `status`,
the fee, lamport balances before and after, inner instructions (data in base58), the log,
SPL token balances, loaded addresses and compute units.
"""

from __future__ import annotations

import base64
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from csi_conformance.groundwork.base58 import b58encode
from csi_conformance.ledger_chain.runtime import Executed

__all__ = ["BlockInfo", "block_result", "transaction_entry"]


@dataclass(frozen=True, slots=True)
class BlockInfo:
    slot: int
    parent_slot: int
    blockhash: str
    previous_blockhash: str
    block_time: int
    block_height: int


def _inner(executed: Executed) -> list[dict[str, Any]]:
    return [{"index": index, "instructions": [
        {"programIdIndex": ix.program_index, "accounts": list(ix.accounts), "data": b58encode(ix.data),
         "stackHeight": ix.stack_height} for ix in group]}
        for index, group in enumerate(executed.inner) if group]


def transaction_entry(executed: Executed) -> dict[str, Any]:
    """One transaction of a block: `{transaction: [base64, "base64"], meta, version}`."""
    meta = {
        "err": executed.err,
        "status": {"Ok": None} if executed.err is None else {"Err": executed.err},
        "fee": executed.fee,
        "preBalances": list(executed.pre_balances),
        "postBalances": list(executed.post_balances),
        "innerInstructions": _inner(executed),
        "logMessages": list(executed.logs),
        "preTokenBalances": list(executed.pre_token_balances),
        "postTokenBalances": list(executed.post_token_balances),
        "rewards": [],
        "loadedAddresses": {"writable": [], "readonly": []},
        "computeUnitsConsumed": executed.compute_units,
    }
    raw = base64.b64encode(bytes(executed.transaction)).decode()
    return {"transaction": [raw, "base64"], "meta": meta, "version": "legacy"}


def block_result(info: BlockInfo, transactions: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The `getBlock` result of one slot."""
    return {
        "previousBlockhash": info.previous_blockhash,
        "blockhash": info.blockhash,
        "parentSlot": info.parent_slot,
        "transactions": list(transactions),
        "rewards": [],
        "blockTime": info.block_time,
        "blockHeight": info.block_height,
    }
