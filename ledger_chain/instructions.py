"""What every instruction of Light's programs shares: compressed accounts, their merkle context, the
packed list of trees and queues the indices point into, and account metas.

An instruction names trees and queues by their position among its remaining accounts
(`merkle_tree_pubkey_index`, …); `Remaining` collects them in order of first use. Input accounts
name their state tree and its nullifier queue, outputs their state tree, new addresses the
address queue and tree. The programs want output tree indices ascending: builders sort.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from csi_conformance.ledger_crypto import TOKEN_DISCRIMINATOR
from solders.instruction import AccountMeta
from solders.pubkey import Pubkey

__all__ = ["CompressedAccount", "InputAccount", "Remaining", "account_value", "metas", "proof_value"]

TOKEN_DISCRIMINATOR_BYTES = TOKEN_DISCRIMINATOR.to_bytes(8, "little")


@dataclass(frozen=True, slots=True)
class CompressedAccount:
    """A compressed account as the programs serialize it."""

    owner: Pubkey
    lamports: int
    address: bytes | None = None
    discriminator: bytes | None = None
    data: bytes | None = None
    data_hash: bytes | None = None


@dataclass(frozen=True, slots=True)
class InputAccount:
    """An account to spend: the account, where its leaf is, and the root index its proof is against."""

    account: CompressedAccount
    hash: bytes
    tree: Pubkey
    queue: Pubkey
    leaf_index: int
    root_index: int


def account_value(account: CompressedAccount) -> dict[str, Any]:
    data = None
    if account.data is not None:
        data = {"discriminator": account.discriminator, "data": account.data, "data_hash": account.data_hash}
    return {"owner": bytes(account.owner), "lamports": account.lamports, "address": account.address, "data": data}


def proof_value(proof: dict[str, Sequence[int]] | None) -> dict[str, bytes] | None:
    """A compressed proof `{a, b, c}` (lists of byte values, as the API answers) as the layouts take it."""
    if proof is None:
        return None
    return {name: bytes(proof[name]) for name in ("a", "b", "c")}


class Remaining:
    """The remaining accounts of one instruction, each once, in order of first use; all writable."""

    def __init__(self) -> None:
        self.keys: list[Pubkey] = []

    def index(self, key: Pubkey) -> int:
        if key not in self.keys:
            self.keys.append(key)
        return self.keys.index(key)

    def context(self, account: InputAccount) -> dict[str, Any]:
        """The packed merkle context of an input (v1: no queue index)."""
        return {"merkle_tree_pubkey_index": self.index(account.tree),
                "nullifier_queue_pubkey_index": self.index(account.queue),
                "leaf_index": account.leaf_index, "queue_index": None}

    def metas(self) -> list[AccountMeta]:
        return [AccountMeta(key, False, True) for key in self.keys]


def metas(*entries: tuple[Pubkey, bool, bool]) -> list[AccountMeta]:
    """Account metas from (key, signer, writable) triples."""
    return [AccountMeta(key, signer, writable) for key, signer, writable in entries]
