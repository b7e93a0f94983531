"""The forester of the batched state trees: batch append (output queue -> tree) and batch nullify (input queue ->
tree), with real Groth16 proofs of Light's batch circuits under the kit setup.

When a zkp batch (10 values) of a tree's output queue or input queue is full, the forester proves the
transition and sends the registry's `batch_append` / `batch_nullify` signed by the chain's forester
(the tree names it as its forester, with no network fee: `KitBatchPrograms.genesis`). What the circuits and the
program want (Light `prover/server/prover/batch_*_circuit.go` at 5ca22ae2a, `program-libs/
batched-merkle-tree/src/merkle_tree.rs` at 8ddf06ba3):

- append: public input = hash_chain(old root, new root, hash_chain(the 10 queued hashes), start index as
  a u64 in 32 bytes); leaf i becomes the queued hash unless it already holds a nullifier. Each merkle
  proof is taken against the tree after the leaves before it are written.
- nullify: public input = hash_chain(old root, new root, hash_chain(the 10 nullifiers)); nullifier =
  Poseidon(account hash, leaf index, tx hash) is written at the leaf, appended or not yet.

Proofs go through the chain's proof cache (by the SHA-256 of the request's bytes), so a chain made again
from the same seed signs the same transactions.
"""

from __future__ import annotations

import copy
import hashlib
import struct
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from csi_conformance.groundwork.jsonio import dumps
from csi_conformance.ledger_chain.batch_programs import KitBatchPrograms
from csi_conformance.ledger_chain.batched_model import QueueMirror, TodayModel
from csi_conformance.ledger_chain.instructions import metas
from csi_conformance.ledger_chain.model import Model
from csi_conformance.ledger_chain.operations import Built, Context, Operation
from csi_conformance.ledger_chain.programs import ACCOUNT_COMPRESSION, NOOP, REGISTRY, pda
from csi_conformance.ledger_chain.proofs import ProverUnavailable, ask_prover, default_cache_dir
from csi_conformance.ledger_crypto import StateTree
from csi_conformance.ledger_crypto.batched import hash_chain
from csi_conformance.ledger_proofs.batch_setup import BatchProverProcess, KitSetup, find_kit_setup, prover_binary
from csi_conformance.ledger_proofs.proof_cache import cached_proof
from solders.instruction import Instruction
from solders.pubkey import Pubkey

__all__ = ["ZKP_BATCH", "BatchAppend", "BatchNullify", "BatchProver", "due", "forest",
           "start_forester"]

ZKP_BATCH = 10
"""Values per batch proof: the `zkp_batch_size` of the 0.28.3 dumps' trees and output queues."""
HEIGHT = 32
_ZERO = bytes(32)


# ----------------------------------------------------------------------------- proofs


@dataclass
class BatchProver:
    """Batch proofs by request: from the chain's proof cache, else from the 0.27.0 prover with the kit setup."""

    binary: Path
    setup: KitSetup
    cache_dir: Path = field(default_factory=default_cache_dir)
    proved: int = 0
    cached: int = 0
    timeout: float = 300.0
    _process: BatchProverProcess | None = None

    def prove(self, body: bytes) -> dict[str, list[int]]:
        proof, cached = cached_proof(self.cache_dir, body, lambda: ask_prover(self._url(), body, self.timeout),
                                     keys=self._keys())
        if cached:
            self.cached += 1
        else:
            self.proved += 1
        return proof

    def _keys(self) -> str:
        """The kit setup's keys by their files' SHA-256 (made once per machine: made again, they are other keys, and
        a proof of the old ones is never found)."""
        files = self.setup.manifest.get("files", {})
        return "kit setup " + ",".join(f"{name}:{spec.get('sha256')}" for name, spec in sorted(files.items()))

    def _url(self) -> str:
        if self._process is None or not self._process.running:
            self._process = BatchProverProcess(self.binary, self.setup).start()
        return self._process.url + "/prove"

    def stop(self) -> None:
        if self._process is not None:
            self._process.stop()


def _hex(value: bytes) -> str:
    return "0x" + value.hex()


def _u64_word(value: int) -> bytes:
    return value.to_bytes(32, "big")


def _path(tree: StateTree, index: int) -> list[bytes]:
    """The siblings of leaf `index`, extending the tree with a zero leaf first when it lies beyond its end."""
    if index >= tree.next_index:
        tree.write_leaves({index: _ZERO}, seq=tree.seq)
    return tree.proof(index)


@dataclass(frozen=True)
class Transition:
    """A batch proof's request and what the tree becomes."""

    body: bytes
    old_root: bytes
    new_root: bytes
    tree: StateTree


def append_transition(tree: StateTree, start: int, leaves: Sequence[bytes]) -> Transition:
    """The `append-with-proofs` request writing `leaves` from `start` (a leaf holding a nullifier keeps it)."""
    work, old_root = copy.deepcopy(tree), tree.root
    olds, paths = [], []
    for offset, leaf in enumerate(leaves):
        index = start + offset
        paths.append(_path(work, index))
        old = work.leaf(index)
        olds.append(old)
        work.write_leaves({index: leaf if old == _ZERO else old}, seq=work.seq)
    chain = hash_chain(list(leaves))
    body = {"circuitType": "append-with-proofs", "stateTreeHeight": HEIGHT, "height": HEIGHT,
            "batchSize": len(leaves), "publicInputHash": _hex(hash_chain([old_root, work.root, chain,
                                                                           _u64_word(start)])),
            "oldRoot": _hex(old_root), "newRoot": _hex(work.root), "leavesHashchainHash": _hex(chain),
            "startIndex": start, "oldLeaves": [_hex(o) for o in olds], "leaves": [_hex(v) for v in leaves],
            "merkleProofs": [[_hex(n) for n in p] for p in paths]}
    return Transition(dumps(body).encode(), old_root, work.root, work)


def nullify_transition(tree: StateTree, items: Sequence[Any]) -> Transition:
    """The `update` request writing each queued nullifier (`QueuedNullifier`) at its leaf."""
    work, old_root = copy.deepcopy(tree), tree.root
    olds, paths = [], []
    for item in items:
        paths.append(_path(work, item.leaf_index))
        olds.append(work.leaf(item.leaf_index))
        work.write_leaves({item.leaf_index: item.nullifier}, seq=work.seq)
    chain = hash_chain([item.nullifier for item in items])
    body = {"circuitType": "update", "stateTreeHeight": HEIGHT, "height": HEIGHT, "batchSize": len(items),
            "publicInputHash": _hex(hash_chain([old_root, work.root, chain])), "oldRoot": _hex(old_root),
            "newRoot": _hex(work.root), "leavesHashchainHash": _hex(chain),
            "txHashes": [_hex(i.tx_hash) for i in items], "leaves": [_hex(i.account_hash) for i in items],
            "oldLeaves": [_hex(o) for o in olds], "newMerkleProofs": [[_hex(n) for n in p] for p in paths],
            "pathIndices": [i.leaf_index for i in items]}
    return Transition(dumps(body).encode(), old_root, work.root, work)


# ----------------------------------------------------------------------------- instructions


def _registry_data(name: str, new_root: bytes, proof: dict[str, list[int]]) -> bytes:
    """Anchor `name(bump, data: Vec<u8>)`, data = borsh {new_root, compressed_proof {a, b, c}}."""
    payload = new_root + bytes(proof["a"]) + bytes(proof["b"]) + bytes(proof["c"])
    bump = pda("registry_cpi_authority")[1]
    return (hashlib.sha256(f"global:{name}".encode()).digest()[:8] + bytes([bump])
            + struct.pack("<I", len(payload)) + payload)


def batch_append_instruction(forester: Pubkey, tree: Pubkey, queue: Pubkey, new_root: bytes,
                             proof: dict[str, list[int]]) -> Instruction:
    """The registry's `batch_append`: no forester epoch account (the tree names its forester)."""
    return Instruction(REGISTRY, _registry_data("batch_append", new_root, proof), metas(
        (REGISTRY, False, True), (forester, True, True), (pda("registry_cpi_authority")[0], False, False),
        (pda("registered_registry_program")[0], False, False), (ACCOUNT_COMPRESSION, False, False),
        (NOOP, False, False), (tree, False, True), (queue, False, True), (forester, True, True)))


def batch_nullify_instruction(forester: Pubkey, tree: Pubkey, new_root: bytes,
                              proof: dict[str, list[int]]) -> Instruction:
    """The registry's `batch_nullify`."""
    return Instruction(REGISTRY, _registry_data("batch_nullify", new_root, proof), metas(
        (REGISTRY, False, True), (forester, True, True), (pda("registry_cpi_authority")[0], False, False),
        (pda("registered_registry_program")[0], False, False), (ACCOUNT_COMPRESSION, False, False),
        (NOOP, False, False), (tree, False, True)))


# ----------------------------------------------------------------------------- operations


def due(model: Model) -> list[Operation]:
    """The batch operations whose zkp batch is full now, appends first, tree by tree."""
    if not isinstance(model, TodayModel):
        return []
    found: list[Operation] = []
    for tree, mirror in sorted(model.batched.items(), key=lambda item: bytes(item[0])):
        found += [BatchAppend(tree)] * ((mirror.next_index - mirror.appended) // ZKP_BATCH)
        found += [BatchNullify(tree)] * ((mirror.nullifiers - mirror.nullified) // ZKP_BATCH)
    return found


def _learned(tree: Pubkey, transition: Transition, *, appended: int = 0, nullified: int = 0) -> Any:
    def learn(model: Model) -> None:
        assert isinstance(model, TodayModel)
        mirror = model.batched[tree]
        mirror.tree = transition.tree
        mirror.appended += appended
        mirror.nullified += nullified
        mirror.record_root(transition.new_root)
    return learn


@dataclass(frozen=True)
class BatchAppend(Operation):
    """The forester appends the next zkp batch of a tree's output queue (registry `batch_append`)."""

    kind: ClassVar[str] = "batch-append"
    tree: Pubkey
    tamper: bool = False
    """A negative control: a new root other than the proven one is sent (the program must refuse it)."""

    def describe(self) -> str:
        return f"{self.kind} ({ZKP_BATCH} leaves of {self.tree}, proof under the kit setup)"

    def build(self, ctx: Context) -> Built:
        mirror = _mirror(ctx, self.tree)
        start = mirror.appended
        transition = append_transition(mirror.tree, start, [mirror.hashes[i] for i in range(start, start + ZKP_BATCH)])
        proof = _proof(ctx, transition.body)
        ix = batch_append_instruction(ctx.keys.forester.pubkey(), self.tree, mirror.queue,
                                      _sent_root(transition, self.tamper), proof)
        return Built((ix,), (ctx.keys.forester,), after=_learned(self.tree, transition, appended=ZKP_BATCH))


@dataclass(frozen=True)
class BatchNullify(Operation):
    """The forester writes the next zkp batch of a tree's input queue into it (registry `batch_nullify`)."""

    kind: ClassVar[str] = "batch-nullify"
    tree: Pubkey
    tamper: bool = False

    def describe(self) -> str:
        return f"{self.kind} ({ZKP_BATCH} nullifiers into {self.tree}, proof under the kit setup)"

    def build(self, ctx: Context) -> Built:
        mirror = _mirror(ctx, self.tree)
        start = mirror.nullified
        items = [mirror.queued[i] for i in range(start, start + ZKP_BATCH)]
        transition = nullify_transition(mirror.tree, items)
        proof = _proof(ctx, transition.body)
        ix = batch_nullify_instruction(ctx.keys.forester.pubkey(), self.tree, _sent_root(transition, self.tamper),
                                       proof)
        return Built((ix,), (ctx.keys.forester,), after=_learned(self.tree, transition, nullified=ZKP_BATCH))


def _mirror(ctx: Context, tree: Pubkey) -> QueueMirror:
    assert isinstance(ctx.model, TodayModel)
    return ctx.model.batched[tree]


def _sent_root(transition: Transition, tamper: bool) -> bytes:
    return transition.new_root[:-1] + bytes([transition.new_root[-1] ^ 1]) if tamper else transition.new_root


def _proof(ctx: Context, body: bytes) -> dict[str, list[int]]:
    """From the batch prover the chain's prover carries (`ChainProver.batch`)."""
    if ctx.prover.batch is None:
        raise ProverUnavailable("a batch proof is needed and the chain has no batch prover (kit setup)")
    return ctx.prover.batch.prove(body)


def start_forester(chain: Any) -> BatchProver | None:
    """The batch prover of a chain whose programs carry the kit setup's keys (None for other program sets),
    given to its prover (`ChainProver.batch`); its proofs go to the same proof cache."""
    setup, binary = find_kit_setup(), prover_binary()
    if not isinstance(chain.installation, KitBatchPrograms) or setup is None or binary is None:
        return None
    chain.prover.batch = BatchProver(binary, setup, cache_dir=chain.prover.cache_dir)
    return chain.prover.batch


def forest(chain: Any) -> list[tuple[Operation, Any]]:
    """Run every batch operation that is due (a full zkp batch waits): each with what the chain recorded."""
    ran = []
    while batch := due(chain.model):
        ran.append((batch[0], chain.run(batch[0])))
    return ran
