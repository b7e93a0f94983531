"""The token kinds of a chain of today's programs beyond transfers: approve, revoke, freeze, thaw and burn
of batched-tree token accounts spent by index, drawn as `kinds.py` draws them on v1 trees (the same
weights, one or two inputs of one holder and one mint), as data `kinds_0_28.TODAY_KINDS` takes in.

Only batched-tree accounts are drawn as inputs: a v1 token account needs a validity proof, which
today's verifier refuses from the installed prover. Outputs go to a v1 tree or to a batched tree
whose output queue has room, and inputs come from a tree whose input queue has room.
"""

from __future__ import annotations

from collections.abc import Sequence

from csi_conformance.ledger_chain.batched_model import TodayModel
from csi_conformance.ledger_chain.batched_token_ops import (
    ApproveByIndex,
    BurnByIndex,
    FreezeOrThawByIndex,
    RevokeByIndex,
)
from csi_conformance.ledger_chain.draw_parts import Draw, Users, group, tree_with_room
from csi_conformance.ledger_chain.kinds import Kind
from csi_conformance.ledger_chain.model import LiveAccount, Model
from csi_conformance.ledger_chain.operations import Operation
from hypothesis import strategies as st
from solders.pubkey import Pubkey

__all__ = ["BATCHED_TOKEN_KINDS"]

Groups = dict[tuple[int, Pubkey], list[LiveAccount]]
COUNTS = (1, 2)
"""Inputs a token approve, revoke, freeze, thaw or burn takes here."""


def _tokens(model: Model, users: Users, *, state: str = "initialized", delegated: bool | None = None,
            freezable: bool = False) -> Groups:
    """(user, mint) -> that user's batched-tree token accounts of the mint in `state` that can be spent by
    index (with or without a delegate; of a mint with a freeze authority)."""
    assert isinstance(model, TodayModel)
    found: Groups = {}
    for account in sorted(model.live.values(), key=lambda a: a.hash):
        token = account.token
        if token is None or token.state != state or account.address is not None or not model.spendable(account.tree):
            continue
        if delegated is not None and (token.delegate is not None) != delegated:
            continue
        user, mint = users.index(Pubkey.from_bytes(token.owner)), Pubkey.from_bytes(token.mint)
        if user is not None and (not freezable or model.mints[mint].freezable):
            found.setdefault((user, mint), []).append(account)
    return found


def _amounts(inputs: Sequence[LiveAccount]) -> int:
    return sum(a.token.amount for a in inputs if a.token is not None)


def _hashes(inputs: Sequence[LiveAccount]) -> tuple[bytes, ...]:
    return tuple(a.hash for a in inputs)


def _approve(draw: Draw, model: Model, users: Users) -> Operation:
    user, mint, inputs = group(draw, _tokens(model, users), COUNTS)
    delegate = draw(st.sampled_from([i for i in range(len(users.keys)) if i != user]))
    amount = draw(st.integers(1, _amounts(inputs)))
    return ApproveByIndex(mint, user, _hashes(inputs), delegate, amount, tree_with_room(draw, model, 2))


def _revoke(draw: Draw, model: Model, users: Users) -> Operation:
    user, mint, inputs = group(draw, _tokens(model, users, delegated=True), COUNTS)
    return RevokeByIndex(mint, user, _hashes(inputs), tree_with_room(draw, model, 1))


def _freeze(draw: Draw, model: Model, users: Users, *, thaw: bool = False) -> Operation:
    groups = _tokens(model, users, state="frozen" if thaw else "initialized", freezable=True)
    user, mint, inputs = group(draw, groups, COUNTS)
    return FreezeOrThawByIndex(mint, user, _hashes(inputs), tree_with_room(draw, model, 2), thaw=thaw)


def _burn(draw: Draw, model: Model, users: Users) -> Operation:
    user, mint, inputs = group(draw, _tokens(model, users), COUNTS)
    amount = draw(st.integers(1, _amounts(inputs)))
    return BurnByIndex(mint, user, _hashes(inputs), amount, tree_with_room(draw, model, 1))


BATCHED_TOKEN_KINDS: dict[str, Kind] = {
    "approve-by-index": Kind(3, lambda m, u: bool(_tokens(m, u)), _approve),
    "revoke-by-index": Kind(2, lambda m, u: bool(_tokens(m, u, delegated=True)), _revoke),
    "freeze-by-index": Kind(2, lambda m, u: bool(_tokens(m, u, freezable=True)), _freeze),
    "thaw-by-index": Kind(3, lambda m, u: bool(_tokens(m, u, state="frozen", freezable=True)),
                          lambda d, m, u: _freeze(d, m, u, thaw=True)),
    "burn-by-index": Kind(2, lambda m, u: bool(_tokens(m, u)), _burn),
}
"""Approve, revoke, freeze, thaw and burn by index, by name (the name is the operation's `kind`)."""
