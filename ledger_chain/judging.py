"""The one face a chain shows its judges: what the conformance checks may ask of a chain, and nothing else.

A run with `--chain` holds the chain the target indexed, replayed into LiteSVM; the checks read it
only through `ChainJudge`: which live accounts one transaction can spend together (and whether they
are token accounts), which spent accounts still have their leaf, the tree of an account, the state
trees and the address tree, a tree's on-chain root history, the address a seed creates, the
programs' verdict on a validity proof, the accounts waiting in batched trees' output queues and the
programs' verdict on spending one by index at a place an indexer served. Trees are named in base58,
as answers name them. How the chain is kept (the generator's model, its keys, its runtime) stays
behind this face.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from csi_conformance.ledger_chain.chain import Chain
from csi_conformance.ledger_chain.judge import (
    RootHistory,
    Verdict,
    appended_groups,
    groups,
    history_of,
    judge_proof,
    new_address,
    root_history,
)
from csi_conformance.ledger_chain.judge import spent_accounts as spent_hashes
from csi_conformance.ledger_chain.judge_queued import judge_spend_by_index, queued_accounts
from csi_conformance.ledger_chain.programs_0_28 import TodayPrograms
from csi_conformance.ledger_chain.replay import load_chain
from csi_conformance.ledger_chain.runtime import ChainError
from solders.pubkey import Pubkey

__all__ = ["AccountGroup", "ChainError", "ChainJudge", "QueuedAccount", "RootHistory", "SpentAccount", "Verdict",
           "read_root_history"]

def read_root_history(tree: str, data: bytes) -> RootHistory:
    """A tree's root history from its account's bytes as a Solana node serves them (`getAccountInfo`): a v1
    state or address tree, or a batched tree; ValueError for an account that is no tree."""
    try:
        history = history_of(Pubkey.from_string(tree), data)
    except struct.error:
        raise ValueError(f"not a tree account ({len(data)} bytes)") from None
    if not history.roots:
        raise ValueError("a tree account without a root history")
    return history


@dataclass(frozen=True)
class AccountGroup:
    """Live accounts one transaction can spend together: one holder, one kind (plain, or tokens of one mint)."""

    hashes: tuple[bytes, ...]
    token: bool


@dataclass(frozen=True)
class SpentAccount:
    """An account the chain spent whose leaf is still in its tree, that a user of the chain could sign for."""

    hash: bytes
    token: bool


@dataclass(frozen=True)
class QueuedAccount:
    """An account of a batched tree's output queue: where the chain holds it, and whether it is spent there."""

    hash: bytes
    tree: str
    queue: str
    leaf_index: int
    token: bool
    spent: bool
    spendable: bool
    """A user of the chain can sign a spend of it: `judge_spend_by_index` can put it before the programs."""


class ChainJudge:
    """A chain replayed into LiteSVM, as its judges see it."""

    def __init__(self, chain: Chain) -> None:
        self._chain = chain

    @classmethod
    def load(cls, folder: Path) -> ChainJudge:
        """The chain of a folder, replayed; ChainError (or ConfigError) when the folder is not a chain."""
        return cls(load_chain(Path(folder)))

    @property
    def today(self) -> bool:
        """Whether today's programs (0.28.3) made the chain, not 0.18.0's."""
        return self._chain.today

    @property
    def verifies_v1_proofs(self) -> bool:
        """Whether the chain's light system program verifies the v1 proofs of the prover this kit installs: 0.18.0's
        and today's with Light's June 2025 verifying keys do; the published 0.28.3 (October 2025 keys) does not."""
        installation = self._chain.installation
        return not isinstance(installation, TodayPrograms) or installation.v1_proofs

    @property
    def address_tree(self) -> str:
        return str(self._chain.model.address_tree_key)

    @property
    def state_trees(self) -> tuple[str, ...]:
        """The v1 state trees, whose root histories the proofs' root indices name."""
        return tuple(str(key) for key in self._chain.model.state_trees)

    def groups(self) -> list[AccountGroup]:
        live = self._chain.model.live
        return [AccountGroup(tuple(group), live[group[0]].token is not None) for group in groups(self._chain)]

    def appended_groups(self) -> list[AccountGroup]:
        """Live plain accounts appended to a batched tree, one user's of one tree per group: what one v2 inclusion
        proof (height 32) proves and one transaction spends."""
        return [AccountGroup(tuple(group), False) for group in appended_groups(self._chain)]

    def spent_accounts(self) -> list[SpentAccount]:
        spent = self._chain.model.spent
        return [SpentAccount(hash_, spent[hash_].token is not None) for hash_ in spent_hashes(self._chain)]

    def tree_of(self, hash_: bytes) -> str:
        """The tree of a live account, or of a spent one whose leaf is still there; KeyError for any other."""
        model = self._chain.model
        account = model.live.get(hash_) or model.spent[hash_]
        return str(account.tree)

    def root_history(self, tree: str) -> RootHistory:
        return root_history(self._chain, Pubkey.from_string(tree))

    def new_address(self, seed: bytes) -> bytes:
        """The address a 32-byte seed creates in the address tree."""
        return new_address(self._chain, seed)

    def judge_proof(self, *, hashes: Sequence[bytes] = (), seeds: Sequence[bytes] = (), proof: dict,
                    root_indices: Sequence[int]) -> Verdict:
        """The programs' verdict on a transaction spending `hashes` and creating the addresses of `seeds` with
        `proof` and `root_indices` (`judge.judge_proof`)."""
        return judge_proof(self._chain, hashes=hashes, seeds=seeds, proof=proof, root_indices=root_indices)

    def queued_accounts(self) -> list[QueuedAccount]:
        """Every account of the batched trees' output queues, live and spent, in hash order."""
        return [QueuedAccount(item.account.hash, str(item.account.tree), str(item.queue), item.account.leaf_index,
                              item.account.token is not None, item.spent, item.signable)
                for item in queued_accounts(self._chain)]

    def judge_spend_by_index(self, hash_: bytes, *, tree: str, leaf_index: int) -> Verdict:
        """The programs' verdict on spending the queued account `hash_` by index at `leaf_index` of `tree`
        (base58); ValueError for an account no user can spend, a key that is not base58, an index no u32."""
        try:
            key = Pubkey.from_string(tree)
        except ValueError:
            raise ValueError(f"{tree!r} is no public key") from None
        return judge_spend_by_index(self._chain, hash_, tree=key, leaf_index=leaf_index)
