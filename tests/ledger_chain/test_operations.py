"""Every kind of operation, run by the real programs in the test chain: each encoder is shown right by the
programs accepting what it builds (or refusing what they must refuse), and every account they opened
hashes as the kit hashes it."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from csi_conformance.ledger_chain import Chain, Generated
from csi_conformance.ledger_chain.kinds import KINDS
from csi_conformance.ledger_chain.replay import read_chain
from csi_conformance.ledger_crypto import account_hash, token_data_hash
from csi_conformance.ledger_ingest import read_paths

pytestmark = pytest.mark.chain


def test_every_kind_ran_on_the_real_programs(generated: Generated, chain_dir: Path) -> None:
    assert set(generated.kinds) == set(KINDS), f"missing: {set(KINDS) - set(generated.kinds)}"
    manifest = yaml.safe_load((chain_dir / "chain.yaml").read_text())
    assert manifest["kinds"] == dict(sorted(generated.kinds.items()))
    failed = {}
    for slot, block in read_chain(chain_dir).blocks():
        for entry in block["transactions"]:
            if entry["meta"]["err"] is not None:
                failed[entry["meta"]["err"]["InstructionError"][1]["Custom"]] = slot
    kinds = [t["kind"] for t in manifest["transactions"]]
    assert set(failed) == {9002} and kinds.count("double-spend") >= 1, "only the planned double spend fails"


def test_every_opened_account_hashes_as_the_kit_hashes_it(chain_dir: Path) -> None:
    """The programs' hashes (from the events) equal ledger_crypto's, which the scenarios' ledger uses."""
    opened = [account for block in read_paths([chain_dir]) for tx in block.transactions for account in tx.opened]
    shapes = set()
    for account in opened:
        data_hash = account.data_hash
        if account.token is not None:
            token = account.token
            assert token_data_hash(mint=token.mint, owner=token.owner, amount=token.amount, delegate=token.delegate,
                                   frozen=token.state == "frozen") == data_hash
            shapes.add(("token", token.delegate is not None, token.state))
        else:
            shapes.add(("plain", account.address is not None, account.lamports > 0))
        assert account_hash(owner=account.owner, leaf_index=account.leaf_index, tree=account.tree,
                            lamports=account.lamports, address=account.address, discriminator=account.discriminator,
                            data_hash=data_hash) == account.hash
    assert {("plain", True, True), ("plain", False, True), ("token", False, "initialized"),
            ("token", True, "initialized"), ("token", False, "frozen")} <= shapes


def test_the_chains_final_trees_are_the_kits(chain_dir: Path, loaded: Chain) -> None:
    final = yaml.safe_load((chain_dir / "chain.yaml").read_text())["final_trees"]
    trees = {str(k): m.tree for k, m in loaded.model.state_trees.items()}
    trees[str(loaded.model.address_tree_key)] = loaded.model.address_tree
    assert len(final) == len(trees) == 3, "two state trees (the dumped one and one made by the registry)"
    for key, summary in final.items():
        assert summary["seq"] == trees[key].seq and summary["root"] == "0x" + trees[key].root.hex()
