"""A generated chain read back, and replayed into LiteSVM: the state after any of its blocks.

A chain folder keeps blocks, not state: the state is what replaying the blocks gives. The same
genesis (from `chain.yaml`: the seed's keys, the funded accounts, the forester written into the
dumped trees) and the same signed transactions, block after block, with the clock at each
block's slot, give the same state and the same blockhashes; replay checks both (each
transaction's error, each block's hash), so a folder that was altered does not load. The kit's
model is rebuilt from the events on the way, as when the chain was made, and what no event says
(the mints, the users' SPL balances) from the replayed state.
"""

from __future__ import annotations

import base64
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import yaml
from csi_conformance.groundwork.errors import ConfigError, JsonError
from csi_conformance.groundwork.jsonio import loads
from csi_conformance.ledger_chain.accounts import read_tree
from csi_conformance.ledger_chain.batched_ops import INVOKE as TODAY_INVOKE
from csi_conformance.ledger_chain.chain import Chain
from csi_conformance.ledger_chain.generation import MANIFEST, programs_named
from csi_conformance.ledger_chain.layouts import INVOKE, discriminator
from csi_conformance.ledger_chain.model import Mint, StateTreeMirror
from csi_conformance.ledger_chain.operations import address_of
from csi_conformance.ledger_chain.programs import LIGHT_SYSTEM
from csi_conformance.ledger_chain.programs_0_28 import TodayPrograms
from csi_conformance.ledger_chain.proofs import ChainProver
from csi_conformance.ledger_chain.runtime import ChainError
from csi_conformance.ledger_chain.token import MINT_SIZE
from csi_conformance.ledger_proofs.install import Installation
from solders.pubkey import Pubkey
from solders.token.associated import get_associated_token_address
from solders.transaction import Transaction

__all__ = ["ChainFolder", "Replayer", "load_chain", "read_chain", "replay_block"]

_INVOKE = discriminator("invoke")


class ChainFolder:
    """A chain folder's manifest and blocks (slot order), read and checked for shape only."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        path = folder / MANIFEST
        try:
            self.manifest: dict[str, Any] = yaml.safe_load(path.read_text(encoding="utf-8"))
        except (OSError, yaml.YAMLError) as exc:
            raise ConfigError(f"{folder} is not a chain folder (`csi chain generate -o` writes one): "
                              f"cannot read {MANIFEST}: {exc}") from None
        if not isinstance(self.manifest, dict) or "seed" not in self.manifest:
            raise ConfigError(f"{path}: not a chain manifest (no `seed`)")
        self.slots = sorted(int(p.name) for p in folder.iterdir() if p.is_file() and p.name.isdigit())

    def block(self, slot: int) -> dict[str, Any]:
        path = self.folder / str(slot)
        try:
            return loads(path.read_text(encoding="utf-8"))
        except (OSError, JsonError, ValueError) as exc:
            raise ConfigError(f"{path}: not a getBlock result: {exc}") from None

    def blocks(self) -> Iterator[tuple[int, dict[str, Any]]]:
        for slot in self.slots:
            yield slot, self.block(slot)


def read_chain(folder: Path) -> ChainFolder:
    return ChainFolder(Path(folder))


class Replayer:
    """A chain folder replayed block by block, as far as asked (`upto`): the state at any of its slots."""

    def __init__(self, folder: Path, *, installation: Installation | TodayPrograms | None = None) -> None:
        self.source = read_chain(folder)
        programs = installation or programs_named(str(self.source.manifest.get("programs", "")))
        self.chain = Chain(int(self.source.manifest["seed"]), programs, ChainProver())
        forester = self.source.manifest.get("genesis", {}).get("forester")
        if forester is not None and forester != str(self.chain.keys.forester.pubkey()):
            raise ConfigError(f"{self.source.folder / MANIFEST}: its forester is not the one of seed {self.chain.seed}")
        self.replayed = 0
        """How many of the folder's blocks are replayed."""

    @property
    def slot(self) -> int | None:
        """The slot of the last block replayed (None before the first)."""
        return self.source.slots[self.replayed - 1] if self.replayed else None

    def upto(self, slot: int | None = None) -> Chain:
        """Replay every block up to `slot` (all of them with None) not replayed yet."""
        while self.replayed < len(self.source.slots):
            next_slot = self.source.slots[self.replayed]
            if slot is not None and next_slot > slot:
                break
            replay_block(self.chain, next_slot, self.source.block(next_slot))
            self.replayed += 1
        _learn_tokens(self.chain, self.source.manifest.get("mints") or ())
        return self.chain


def load_chain(folder: Path, *, installation: Installation | TodayPrograms | None = None,
               until_slot: int | None = None) -> Chain:
    """The chain of a folder replayed into LiteSVM, up to `until_slot` (default: all of it)."""
    return Replayer(Path(folder), installation=installation).upto(until_slot)


def replay_block(chain: Chain, slot: int, block: dict[str, Any]) -> None:
    """Execute a block's transactions again at its slot; ChainError when they do not do what the block says."""
    chain.advance(slot - chain.slot)
    for number, entry in enumerate(block.get("transactions") or ()):
        tx = Transaction.from_bytes(base64.b64decode(entry["transaction"][0]))
        executed = chain.runtime.execute(tx)
        recorded = entry["meta"]["err"]
        if executed.err != recorded:
            raise ChainError(f"slot {slot}, transaction {number}: replayed with error {executed.err}, the block "
                             f"records {recorded}: the folder is not the chain its manifest describes")
        if executed.err is None:
            changes = chain.changes(entry)
            for output in changes.opened:
                if output.queue is None:
                    _learn_tree(chain, Pubkey.from_bytes(output.tree))
            chain.model.apply(changes, queued=tuple(_new_addresses(tx, today=chain.today)))
        chain.keep(entry)
    chain.close_block()
    if chain.blocks and chain.blocks[-1][1]["blockhash"] != block.get("blockhash"):
        raise ChainError(f"slot {slot}: replayed blockhash {chain.blocks[-1][1]['blockhash']}, the block says "
                         f"{block.get('blockhash')}")


def _learn_tree(chain: Chain, tree: Pubkey) -> None:
    if tree not in chain.model.state_trees:
        queue = read_tree(chain.runtime.data(tree)).associated_queue
        chain.model.state_trees[tree] = StateTreeMirror(tree, queue)


def _learn_tokens(chain: Chain, mints: Iterable[str]) -> None:
    """The mints made so far (no compression event names them) and the users' SPL balances, from the state."""
    for text in mints:
        mint = Pubkey.from_string(text)
        data = chain.runtime.data(mint)
        if len(data) < MINT_SIZE:
            continue  # not made yet at this slot
        chain.model.mints[mint] = Mint(mint, data[44], data[46] == 1)
        for user in chain.keys.users:
            account = chain.runtime.data(get_associated_token_address(user, mint))
            if len(account) >= 72:
                chain.model.spl[(user, mint)] = int.from_bytes(account[64:72], "little")


def _new_addresses(tx: Transaction, *, today: bool) -> Iterator[int]:
    """The addresses a transaction's `invoke` instructions create (their seeds, in the address tree named); today's
    layout names an input's place with `prove_by_index` where 0.18.0's had an empty `queue_index`."""
    keys = tx.message.account_keys
    for ix in tx.message.instructions:
        if keys[ix.program_id_index] != LIGHT_SYSTEM or bytes(ix.data[:8]) != _INVOKE:
            continue
        data = (TODAY_INVOKE if today else INVOKE).parse(bytes(ix.data[12:]))
        remaining = [keys[i] for i in bytes(ix.accounts)[9:]]
        for params in data.new_address_params:
            seed, tree_index = (params[:32], params[33]) if today else (params.seed,
                                                                        params.address_merkle_tree_account_index)
            yield int.from_bytes(address_of(bytes(seed), remaining[tree_index]), "big")
