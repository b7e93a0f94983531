"""The forester's batch append and batch nullify on today's programs, with proofs under the kit setup.

One chain for every test here: today's programs with the June 2025 keys and the kit setup's batch
keys in `account_compression.so`, seed 8, drawn until both a batch append and a batch nullify ran.
Before the first of each, the same batch with a new root other than the proven one is simulated: the
program must refuse it (negative control). Proofs come from the user's proof cache after the first run.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import pytest
from csi_conformance.ledger_chain import batch_forester as forester
from csi_conformance.ledger_chain.batch_programs import make_batch_programs, patched_account_compression
from csi_conformance.ledger_chain.batched_model import TodayModel, read_batched_tree
from csi_conformance.ledger_chain.chain import COMPUTE_UNITS, Chain
from csi_conformance.ledger_chain.draw import next_step
from csi_conformance.ledger_chain.draw_parts import Users
from csi_conformance.ledger_chain.kinds_0_28 import kinds_for
from csi_conformance.ledger_chain.patched_programs import install_patched
from csi_conformance.ledger_chain.proofs import ChainProver
from csi_conformance.ledger_chain.runtime import ChainError, Executed
from csi_conformance.ledger_proofs.batch_setup import KitSetup
from solders.compute_budget import set_compute_unit_limit
from solders.message import Message
from solders.transaction import Transaction

from tests.ledger_proofs.support import installed_v2_prover, made_kit_setup

SEED, MAX_OPS = 8, 40


@pytest.fixture(scope="session")
def kit_setup() -> KitSetup:
    """The kit setup, made once per machine (about two minutes), the 0.27.0 prover installed first when missing."""
    return made_kit_setup()


@dataclass
class Forested:
    chain: Chain
    batches: list[tuple[str, Executed]] = field(default_factory=list)
    refused: dict[str, Executed] = field(default_factory=dict)
    """Kind -> the simulated batch with a wrong new root."""


def _simulate(chain: Chain, operation: Any) -> Executed:
    built = operation.build(chain.context)
    message = Message.new_with_blockhash([set_compute_unit_limit(COMPUTE_UNITS), *built.instructions],
                                         built.signers[0].pubkey(), chain.recent_blockhash)
    return chain.runtime.simulate(Transaction(list(built.signers), message, chain.recent_blockhash))


@pytest.fixture(scope="module")
def forested(kit_setup: KitSetup) -> Forested:
    programs = make_batch_programs(install_patched(), kit_setup)
    chain = Chain(SEED, programs, ChainProver())
    batch_prover = chain.prover.batch = forester.BatchProver(installed_v2_prover().binary, kit_setup)
    found = Forested(chain)
    users, kinds = Users(tuple(chain.keys.users)), Counter[str]()
    try:
        for index in range(MAX_OPS):
            operation, slots = next_step(chain.model, users, kinds.keys(), seed=SEED, index=index,
                                         kinds=kinds_for(programs.v1_proofs))
            chain.advance(slots if index else 0)
            chain.run(operation)
            kinds[operation.kind] += 1
            for batch in iter(lambda: next(iter(forester.due(chain.model)), None), None):
                if batch.kind not in found.refused:
                    found.refused[batch.kind] = _simulate(chain, type(batch)(batch.tree, tamper=True))
                found.batches.append((batch.kind, chain.run(batch)))
            if {kind for kind, _ in found.batches} == {"batch-append", "batch-nullify"}:
                break
    finally:
        batch_prover.stop()
    return found


def test_batch_append_and_nullify_are_accepted(forested: Forested) -> None:
    kinds = {kind for kind, _ in forested.batches}
    assert kinds == {"batch-append", "batch-nullify"}
    logs = {kind: "\n".join(executed.logs) for kind, executed in forested.batches}
    assert "Instruction: BatchAppend" in logs["batch-append"]
    assert "Instruction: BatchNullify" in logs["batch-nullify"]


def test_the_model_equals_every_batched_tree_account(forested: Forested) -> None:
    model = forested.chain.model
    assert isinstance(model, TodayModel)
    for tree, mirror in model.batched.items():
        onchain = read_batched_tree(forested.chain.runtime.data(tree))
        assert (onchain.sequence_number, onchain.next_index, onchain.root) == (
            len(mirror.roots) - 1, mirror.appended, mirror.tree.root)
        assert onchain.history == tuple(mirror.roots)  # no bloom filter cleared yet in so short a chain
    assert sum(m.appended for m in model.batched.values()) >= forester.ZKP_BATCH
    model.check(forested.chain.runtime)


def test_the_model_check_sees_a_wrong_root(forested: Forested) -> None:
    model = forested.chain.model
    assert isinstance(model, TodayModel)
    mirror = next(m for m in model.batched.values() if len(m.roots) > 1)
    kept = mirror.roots[-1]
    mirror.roots[-1] = bytes(32)
    try:
        with pytest.raises(ChainError, match="root histories differ"):
            model.check(forested.chain.runtime)
    finally:
        mirror.roots[-1] = kept


def test_appended_accounts_are_leaves_of_the_tree(forested: Forested) -> None:
    model = forested.chain.model
    assert isinstance(model, TodayModel)
    for mirror in model.batched.values():
        for index in range(mirror.appended):
            assert mirror.tree.leaf(index) in (mirror.hashes[index], *[n.nullifier for n in mirror.queued.values()])


@pytest.mark.parametrize("kind", ["batch-append", "batch-nullify"])
def test_a_wrong_new_root_is_refused(forested: Forested, kind: str) -> None:
    refused = forested.refused[kind]
    assert refused.err is not None, f"the program accepted a {kind} whose new root is not the proven one"
    assert refused.custom_code == 13006  # the batch proof does not verify (Light: verifier error)


def test_the_unpatched_program_lacks_no_key_and_a_foreign_binary_is_refused(kit_setup: KitSetup) -> None:
    with pytest.raises(ValueError, match="batch_append_32_10"):
        patched_account_compression(bytes(4096), kit_setup)
