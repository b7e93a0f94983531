"""One compress-spl draw (`draw_parts.compress_spl`) for the v1 kinds and 0.28.3's: from one seed both tables
draw the same holder, mint, amount and recipient, and differ only in where the output goes (a v1 tree, or a v1
tree or a batched tree's output queue)."""

from __future__ import annotations

import pytest
from csi_conformance.ledger_chain.batched_model import QueueMirror, TodayModel
from csi_conformance.ledger_chain.draw import drawn
from csi_conformance.ledger_chain.draw_parts import Users
from csi_conformance.ledger_chain.kinds import KINDS, Kind
from csi_conformance.ledger_chain.kinds_0_28 import OCTOBER_KEYS_KINDS, TODAY_KINDS
from csi_conformance.ledger_chain.model import Model, StateTreeMirror
from csi_conformance.ledger_chain.programs import ADDRESS_QUEUE, ADDRESS_TREE, NULLIFIER_QUEUE, STATE_TREE
from csi_conformance.ledger_chain.programs_0_28 import BATCHED_TREES
from csi_conformance.ledger_chain.token_ops import TokenTransfer
from hypothesis import strategies as st
from solders.pubkey import Pubkey

USERS = Users(tuple(Pubkey.new_unique() for _ in range(4)))
MINT = Pubkey.new_unique()
HELD = 500


def _models() -> tuple[Model, TodayModel]:
    v1 = Model({STATE_TREE: StateTreeMirror(STATE_TREE, NULLIFIER_QUEUE)}, ADDRESS_TREE, ADDRESS_QUEUE)
    today = TodayModel({STATE_TREE: StateTreeMirror(STATE_TREE, NULLIFIER_QUEUE)}, ADDRESS_TREE, ADDRESS_QUEUE,
                       batched={tree: QueueMirror(queue) for tree, queue in BATCHED_TREES.items()})
    for model in (v1, today):
        model.spl = {(USERS.keys[2], MINT): HELD, (USERS.keys[3], MINT): 0}
    return v1, today


def _plan(kind: Kind, model: Model, seed: int) -> TokenTransfer:
    plan = drawn(st.composite(lambda draw: kind.plan(draw, model, USERS))(), seed)
    assert isinstance(plan, TokenTransfer)
    return plan


@pytest.mark.parametrize("today_kinds", [TODAY_KINDS, OCTOBER_KEYS_KINDS], ids=["june-keys", "october-keys"])
def test_both_tables_draw_the_same_compression_but_for_its_tree(today_kinds: dict[str, Kind]) -> None:
    v1, today = _models()
    queues = {STATE_TREE, *BATCHED_TREES.values()}
    trees = set()
    for seed in range(12):
        a, b = _plan(KINDS["compress-spl"], v1, seed), _plan(today_kinds["compress-spl"], today, seed)
        ((recipient, amount, tree),) = a.outputs
        assert (a.label, a.mint, a.user, a.inputs, a.compress) == ("compress-spl", MINT, 2, (), amount)
        assert 1 <= amount <= HELD and recipient in range(4) and tree == STATE_TREE
        assert (b.label, b.mint, b.user, b.compress, b.outputs[0][:2]) == (a.label, a.mint, a.user, a.compress,
                                                                           (recipient, amount))
        assert b.outputs[0][2] in queues
        trees.add(b.outputs[0][2])
    assert len(trees) > 1  # 0.28.3's draw reaches the batched trees' output queues


def test_it_applies_only_while_someone_holds_spl_tokens() -> None:
    v1, today = _models()
    assert KINDS["compress-spl"].applies(v1, USERS) and TODAY_KINDS["compress-spl"].applies(today, USERS)
    for model in (v1, today):
        model.spl = {key: 0 for key in model.spl}
    assert not KINDS["compress-spl"].applies(v1, USERS) and not TODAY_KINDS["compress-spl"].applies(today, USERS)
