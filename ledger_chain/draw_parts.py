"""The small draws every table of kinds shares: whose accounts, how many, to whom, into which tree, which seed.

Each kind's plan is drawn over the kit's model with hypothesis strategies (`draw.py` runs them from a seed). The
pieces here are drawn the same way for the v1 chain (`kinds.py`) and a chain of 0.28.3's programs
(`kinds_0_28.py`, `batched_token_kinds.py`), so one seed draws the same plan from either table's pieces.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from csi_conformance.ledger_chain.batched_model import TodayModel
from csi_conformance.ledger_chain.model import LiveAccount, Model
from csi_conformance.ledger_chain.operations import address_of
from csi_conformance.ledger_chain.programs import STATE_TREE
from csi_conformance.ledger_chain.token_ops import TokenTransfer
from hypothesis import strategies as st
from solders.pubkey import Pubkey

__all__ = ["Draw", "Users", "compress_spl", "free_seed", "group", "has_spl", "other_user", "pick", "tree_with_room"]

Draw = Callable[[st.SearchStrategy], object]


@dataclass(frozen=True)
class Users:
    """The chain's users by index, and the index of a key."""

    keys: tuple[Pubkey, ...]

    def index(self, key: Pubkey) -> int | None:
        return self.keys.index(key) if key in self.keys else None


def pick(draw: Draw, accounts: Sequence[LiveAccount], counts: Sequence[int]) -> list[LiveAccount]:
    """Some of `accounts`, as many as one of `counts` allows, in their order."""
    n = draw(st.sampled_from([n for n in counts if n <= len(accounts)]))
    chosen = draw(st.permutations(range(len(accounts))))
    return [accounts[i] for i in sorted(chosen[:n])]  # type: ignore[index]


def group(draw: Draw, groups: Mapping[tuple[int, Any], Sequence[LiveAccount]], counts: Sequence[int]
          ) -> tuple[int, Any, list[LiveAccount]]:
    """One (user, mint or tree) of `groups` and some of its accounts (`pick`)."""
    user, key = draw(st.sampled_from(sorted(groups, key=lambda k: (k[0], bytes(k[1]) if k[1] else b""))))
    return user, key, pick(draw, groups[(user, key)], counts)


def other_user(draw: Draw, users: Users, user: int) -> int:
    """Any user but `user`."""
    return draw(st.sampled_from([i for i in range(len(users.keys)) if i != user]))


def free_seed(draw: Draw, model: Model) -> bytes:
    """A seed whose address in the v1 address tree nobody holds yet (a new address must be free)."""
    seed = b"\0" + draw(st.binary(min_size=31, max_size=31))
    value = int.from_bytes(address_of(seed, model.address_tree_key), "big")
    return seed if not model.address_taken(value) else free_seed(draw, model)


def tree_with_room(draw: Draw, model: Model, outputs: int = 1) -> Pubkey:
    """The v1 tree or a batched tree whose output queue has room for `outputs` (a chain of 0.28.3's programs)."""
    assert isinstance(model, TodayModel)
    trees = [STATE_TREE, *(t for t in sorted(model.batched, key=bytes) if model.has_room(t, outputs))]
    return draw(st.sampled_from(trees))


def has_spl(model: Model, users: Users) -> bool:
    """Whether someone holds SPL tokens to compress."""
    return any(v > 0 for v in model.spl.values())


def compress_spl(draw: Draw, model: Model, users: Users, into: Callable[[Draw, Model], Pubkey]) -> TokenTransfer:
    """Some of one holder's SPL tokens compressed, to the holder or another user, into what `into` draws (a v1
    tree, or a batched tree's output queue)."""
    owner, mint = draw(st.sampled_from(sorted((k for k, v in model.spl.items() if v > 0),
                                              key=lambda k: (bytes(k[0]), bytes(k[1])))))
    user = users.index(owner) or 0
    amount = draw(st.integers(1, model.spl[(owner, mint)]))
    recipient = draw(st.sampled_from([user, other_user(draw, users, user)]))
    return TokenTransfer("compress-spl", mint, user, (), ((recipient, amount, into(draw, model)),), compress=amount)
