"""A chain of today's programs (0.28.3): v1 and batched trees mixed, the same bytes for a seed, and the
reference's ledger over its blocks holding, after every transaction, what the on-chain accounts hold:
each output queue's values, each batched tree's next index, input queue and root, each v1 root."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from csi_conformance.ledger_chain import Chain, Generated, generate
from csi_conformance.ledger_chain.accounts import read_tree
from csi_conformance.ledger_chain.batched_model import read_batched_tree, read_output_queue
from csi_conformance.ledger_chain.kinds_0_28 import TODAY_KINDS, V1_PROVEN, V2_PROVEN
from csi_conformance.ledger_chain.programs_0_28 import BATCHED_TREES, TodayPrograms
from csi_conformance.ledger_chain.proofs import ChainProver
from csi_conformance.ledger_chain.replay import load_chain
from csi_conformance.reference_server.batched import BatchedStateTree
from csi_conformance.reference_server.ledger_native import NativeLedger
from solders.pubkey import Pubkey

from tests.ledger_chain.conftest import TODAY_OPS, TODAY_SEED
from tests.ledger_chain.support import beside_the_reference

pytestmark = pytest.mark.chain
_ZERO = bytes(32)


def test_every_kind_is_drawn_and_the_manifest_names_the_programs(today_generated: Generated) -> None:
    manifest = yaml.safe_load((today_generated.folder / "chain.yaml").read_text(encoding="utf-8"))
    assert manifest["programs"] == "today's programs (0.28.3) with the June 2025 verifying keys"
    assert set(manifest["kinds"]) == set(TODAY_KINDS) - set(V2_PROVEN)  # no forester here: nothing appended
    assert set(V1_PROVEN) <= set(manifest["kinds"]) and "v1-spend-refused" not in manifest["kinds"]
    queued = [manifest["final_trees"][str(tree)]["queued"] for tree in BATCHED_TREES]
    assert all(count > 0 for count in queued), "both batched trees were written"


def test_a_second_run_is_byte_identical(today_generated: Generated, today_programs: TodayPrograms,
                                        tmp_path: Path) -> None:
    again = generate(TODAY_OPS, TODAY_SEED, tmp_path / "again", prover=ChainProver(), installation=today_programs)
    names = sorted(p.name for p in today_generated.folder.iterdir())
    assert sorted(p.name for p in again.folder.iterdir()) == names
    for name in names:
        assert (again.folder / name).read_bytes() == (today_generated.folder / name).read_bytes(), name


def _same_state(ledger: NativeLedger, chain: Chain, where: str) -> None:
    for key, tree in ledger.state_trees.items():
        data = chain.runtime.data(Pubkey.from_bytes(key))
        if isinstance(tree, BatchedStateTree):
            queue = read_output_queue(chain.runtime.data(Pubkey.from_bytes(tree.queue)))
            spent = {leaf for leaf, _ in tree.nullifiers.values()}
            assert sorted(queue.values) == sorted(tree.outputs), f"{where}: queue of {Pubkey.from_bytes(key)}"
            for leaf, value in queue.values.items():
                assert value == (_ZERO if leaf in spent else tree.outputs[leaf]), f"{where}: leaf {leaf}"
            onchain = read_batched_tree(data)
            assert (onchain.next_index, onchain.sequence_number, onchain.root) == (tree.appended, tree.seq, tree.root)
            assert onchain.input_next_index == len(tree.nullifiers), where
        else:
            onchain = read_tree(data)
            assert (tree.seq, tree.root) == (onchain.sequence_number, onchain.root), where
            assert onchain.roots[tree.root_index] == tree.root


def test_the_reference_holds_the_on_chain_queues_after_every_transaction(today_generated: Generated,
                                                                         today_programs: TodayPrograms) -> None:
    chain = Chain(TODAY_SEED, today_programs, ChainProver())
    checked = 0
    for where, ledger in beside_the_reference(today_generated.folder, chain):
        _same_state(ledger, chain, where)
        checked += 1
    assert checked == TODAY_OPS
    assert {Pubkey.from_bytes(k) for k, t in ledger.state_trees.items() if isinstance(t, BatchedStateTree)} \
        == set(BATCHED_TREES)


def test_a_today_chain_replays_to_its_final_state(today_generated: Generated, today_programs: TodayPrograms) -> None:
    chain = load_chain(today_generated.folder, installation=today_programs)
    manifest = yaml.safe_load((today_generated.folder / "chain.yaml").read_text(encoding="utf-8"))
    for tree, queue in BATCHED_TREES.items():
        assert read_output_queue(chain.runtime.data(queue)).next_index == manifest["final_trees"][str(tree)]["queued"]
    owners = {a.owner for a in chain.model.live.values() if a.token is None and a.tree in BATCHED_TREES} & \
        {a.owner for a in chain.model.live.values() if a.token is None and a.tree not in BATCHED_TREES}
    assert owners, "some owner holds accounts in both kinds of tree"
