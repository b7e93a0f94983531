"""A chain folder loads back into LiteSVM by replaying its blocks: the same state, the same blockhashes;
a folder that was altered does not load."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from csi_conformance.groundwork.errors import ConfigError
from csi_conformance.groundwork.jsonio import dumps, loads
from csi_conformance.ledger_chain import Chain, ChainError, Replayer, load_chain
from csi_conformance.ledger_chain.replay import read_chain
from csi_conformance.ledger_proofs.install import Installation

pytestmark = pytest.mark.chain


def test_replay_rebuilds_the_model_and_the_blocks(chain_dir: Path, loaded: Chain) -> None:
    source = read_chain(chain_dir)
    assert [slot for slot, _ in loaded.blocks] == source.slots
    assert [block for _, block in loaded.blocks] == [source.block(slot) for slot in source.slots]
    assert len(loaded.model.live) > 10
    assert sorted(map(str, loaded.model.mints)) == sorted(source.manifest["mints"]) != []


def test_replay_stops_at_a_slot(chain_dir: Path, installation: Installation) -> None:
    slots = read_chain(chain_dir).slots
    replayer = Replayer(chain_dir, installation=installation)
    half = replayer.upto(slots[len(slots) // 2])
    assert replayer.slot == slots[len(slots) // 2] and replayer.replayed == len(slots) // 2 + 1
    seq = half.model.address_tree.seq
    replayer.upto()
    assert replayer.replayed == len(slots) and half.model.address_tree.seq >= seq


def test_an_altered_folder_does_not_load(chain_dir: Path, tmp_path: Path, installation: Installation) -> None:
    copy = tmp_path / "chain"
    shutil.copytree(chain_dir, copy)
    source = read_chain(copy)
    slot = next(s for s in source.slots if source.block(s)["transactions"][0]["meta"]["err"] is None)
    block = loads((copy / str(slot)).read_text())
    block["transactions"][0]["meta"]["err"] = {"InstructionError": [1, {"Custom": 6000}]}
    (copy / str(slot)).write_text(dumps(block))
    with pytest.raises(ChainError, match=f"slot {slot}, transaction 0: replayed with error None"):
        load_chain(copy, installation=installation)
    (copy / "chain.yaml").write_text("not: a chain\n")
    with pytest.raises(ConfigError, match="not a chain manifest"):
        load_chain(copy, installation=installation)
