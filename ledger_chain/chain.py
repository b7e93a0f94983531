"""A chain in the making: the runtime, the kit's model, the keys and the prover, and the blocks so far.

Slots and time are the chain's own, so two runs agree: the first block is at `FIRST_SLOT`, a slot
lasts 400 ms from `GENESIS_TIME`. The genesis hash comes from the seed, the program set and the
funded accounts, and a block's hash from its parent's, its slot and its transactions' signatures
(`hashes.py`), so two chains differ in both, as real ones do. Transactions of a block are signed
with the blockhash of the block before (the parent's, the genesis hash for the first), as a client
signs with a recent one. The users, the forester and the treasurer start funded (genesis);
everything after is a transaction in a block. After every transaction the model learns from its
events and is checked against the on-chain trees.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass, field
from typing import Any

from csi_conformance.ledger_chain.batch_programs import KitBatchPrograms
from csi_conformance.ledger_chain.batched_model import QueueMirror, TodayModel
from csi_conformance.ledger_chain.blocks import BlockInfo, block_result, transaction_entry
from csi_conformance.ledger_chain.hashes import block_hash, genesis_hash
from csi_conformance.ledger_chain.keys import Keys
from csi_conformance.ledger_chain.model import Model, StateTreeMirror
from csi_conformance.ledger_chain.operations import Context, Operation
from csi_conformance.ledger_chain.programs import (
    ADDRESS_QUEUE,
    ADDRESS_TREE,
    NULLIFIER_QUEUE,
    PROGRAM_FILES,
    STATE_TREE,
)
from csi_conformance.ledger_chain.programs_0_28 import BATCHED_TREES, TodayPrograms
from csi_conformance.ledger_chain.proofs import ChainProver
from csi_conformance.ledger_chain.runtime import ChainError, Executed, Runtime
from csi_conformance.ledger_ingest import LedgerTransaction, decode_transaction, transaction_changes
from csi_conformance.ledger_proofs.install import Installation, manifest
from solders.compute_budget import set_compute_unit_limit
from solders.hash import Hash
from solders.message import Message
from solders.pubkey import Pubkey
from solders.transaction import Transaction, VersionedTransaction

__all__ = ["COMPUTE_UNITS", "FIRST_SLOT", "GENESIS_TIME", "Chain", "Context", "genesis_funding"]

FIRST_SLOT = 1_000
GENESIS_TIME = 1_735_689_600
"""2025-01-01T00:00:00Z: the chain's clock at its first slot."""
SLOT_MS = 400
COMPUTE_UNITS = 1_400_000
"""What every transaction asks for (a compute budget instruction first, as clients send)."""


def genesis_funding(keys: Keys) -> dict[Pubkey, int]:
    """Who holds lamports before the first block: users 1,000 SOL, the forester 100, the treasurer
    10,000 (trees cost about 19 SOL of rent each)."""
    funding = {key: 10**12 for key in keys.users}
    funding[keys.forester.pubkey()] = 10**11
    funding[keys.treasurer.pubkey()] = 10**13
    return funding


def program_set(installation: Installation | TodayPrograms) -> tuple[str, list[Pubkey]]:
    """The programs a chain runs, as its genesis names them: the package and version, and the program ids."""
    if isinstance(installation, TodayPrograms):
        return installation.label, list(installation.program_files)
    return f"{manifest()['package']}@{manifest()['version']}", list(PROGRAM_FILES)


def _signatures(entry: dict[str, Any]) -> list[Any]:
    return list(VersionedTransaction.from_bytes(base64.b64decode(entry["transaction"][0])).signatures)


@dataclass
class Chain:
    seed: int
    installation: Installation | TodayPrograms
    """0.18.0's programs (with its prover), or today's (0.28.3)."""
    prover: ChainProver
    blocks: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    """(slot, getBlock result) of every block closed so far."""
    log: list[tuple[int, str, str]] = field(default_factory=list)
    """(slot, kind, signature) of every transaction."""

    def __post_init__(self) -> None:
        self.keys = Keys(self.seed)
        self.runtime = Runtime(self.installation, forester=self.keys.forester.pubkey())
        for key, lamports in genesis_funding(self.keys).items():
            self.runtime.fund(key, lamports)
        if isinstance(self.installation, KitBatchPrograms):  # its forester appends and nullifies the batched trees
            self.installation.genesis(self.runtime, self.keys.forester.pubkey(), BATCHED_TREES)
        v1_trees = {STATE_TREE: StateTreeMirror(STATE_TREE, NULLIFIER_QUEUE)}
        if self.today:
            self.model: Model = TodayModel(v1_trees, ADDRESS_TREE, ADDRESS_QUEUE, batched={
                tree: QueueMirror(queue) for tree, queue in BATCHED_TREES.items()})
        else:
            self.model = Model(v1_trees, ADDRESS_TREE, ADDRESS_QUEUE)
        self.context = Context(self.runtime, self.model, self.keys, self.prover)
        label, programs = program_set(self.installation)
        self.genesis_hash = str(genesis_hash(self.seed, label, programs, genesis_funding(self.keys),
                                             self.keys.forester.pubkey()))
        self.slot = FIRST_SLOT
        self._pending: list[dict[str, Any]] = []
        self._parent = (FIRST_SLOT - 1, self.genesis_hash, FIRST_SLOT - 1)
        self.runtime.at_slot(self.slot, self.block_time(self.slot))

    @property
    def today(self) -> bool:
        """Whether today's programs run (batched trees, `insert_into_queues`), not 0.18.0's."""
        return isinstance(self.installation, TodayPrograms)

    @property
    def recent_blockhash(self) -> Hash:
        """What this block's transactions are signed with: the parent block's hash."""
        return Hash.from_string(self._parent[1])

    @staticmethod
    def block_time(slot: int) -> int:
        return GENESIS_TIME + (slot - FIRST_SLOT) * SLOT_MS // 1000

    # ------------------------------------------------------------------ blocks

    def advance(self, slots: int) -> None:
        """Move on `slots` slots (0: stay in this block); a slot passed over has no block (skipped)."""
        if slots <= 0:
            return
        if self._pending:
            self.close_block()
        self.slot += slots
        self.runtime.at_slot(self.slot, self.block_time(self.slot))

    def close_block(self) -> None:
        """End the current block (if it holds a transaction): its blockhash is over its parent's, its slot and
        its transactions' signatures."""
        if not self._pending:
            return
        parent_slot, parent_hash, parent_height = self._parent
        blockhash = str(block_hash(Hash.from_string(parent_hash), self.slot,
                                   [_signatures(entry) for entry in self._pending]))
        info = BlockInfo(self.slot, parent_slot, blockhash, parent_hash, self.block_time(self.slot), parent_height + 1)
        self.blocks.append((self.slot, block_result(info, self._pending)))
        self._parent = (self.slot, blockhash, parent_height + 1)
        self._pending = []

    # ------------------------------------------------------------------ transactions

    def run(self, operation: Operation) -> Executed:
        """Build, sign and execute one operation, learn from its events, and check the trees.
        ChainError naming the operation when the programs refuse it (or accept what they must refuse)."""
        built = operation.build(self.context)
        payer = built.signers[0].pubkey()
        message = Message.new_with_blockhash([set_compute_unit_limit(COMPUTE_UNITS), *built.instructions], payer,
                                             self.recent_blockhash)
        executed = self.runtime.execute(Transaction(list(built.signers), message, self.recent_blockhash))
        entry = transaction_entry(executed)
        if built.fails_with is not None:
            if executed.custom_code != built.fails_with:
                raise ChainError(f"{operation.describe()}: expected the programs to refuse it with "
                                 f"Custom({built.fails_with}), got {executed.err}", logs=executed.logs)
        elif executed.err is not None:
            raise executed.failure(operation.describe())
        else:
            self.model.apply(self.changes(entry), queued=built.queued)
            if built.after is not None:
                built.after(self.model)
            self.model.check(self.runtime)
        self._pending.append(entry)
        self.log.append((self.slot, operation.kind, str(executed.transaction.signatures[0])))
        return executed

    def keep(self, entry: dict[str, Any]) -> None:
        """Add a transaction entry to the current block (a replayed one)."""
        self._pending.append(entry)

    def changes(self, entry: dict[str, Any]) -> LedgerTransaction:
        """A transaction's ledger changes, read from its block entry as an indexer reads them."""
        decoded = decode_transaction(entry, slot=self.slot, block_time=self.block_time(self.slot))
        return transaction_changes(decoded)
