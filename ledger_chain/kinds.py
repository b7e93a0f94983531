"""Every kind of operation the chain draws, as data: a weight, when it applies, and how its plan is drawn.

A plan is drawn over the kit's model (`Model`): which live accounts to spend, how much to move,
to whom, into which tree. Each kind applies only when the model allows it (a merge needs two
accounts of one owner, a thaw a frozen account, a nullify a spent leaf). Input counts are those
a circuit exists for (1, 2, 3, 4 or 8 accounts; 1 or 2 new addresses; combined 1-4 with 1-2),
so every plan can be proven.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from csi_conformance.ledger_chain.draw_parts import (
    Draw,
    Users,
    compress_spl,
    free_seed,
    group,
    has_spl,
    other_user,
    pick,
)
from csi_conformance.ledger_chain.model import LiveAccount, Model
from csi_conformance.ledger_chain.operations import (
    CreateTree,
    DoubleSpend,
    InsertAddress,
    Nullify,
    Operation,
    SolInvoke,
    address_of,
)
from csi_conformance.ledger_chain.system import Output
from csi_conformance.ledger_chain.token_ops import (
    Approve,
    Burn,
    CreateMint,
    FreezeOrThaw,
    MintTo,
    Revoke,
    SplMint,
    TokenTransfer,
)
from hypothesis import strategies as st
from solders.pubkey import Pubkey

__all__ = ["KINDS", "Kind"]

ACCOUNT_COUNTS = (1, 2, 3, 4, 8)
MAX_TREES, MAX_MINTS = 2, 2


@dataclass(frozen=True)
class Kind:
    weight: int
    applies: Callable[[Model, Users], bool]
    plan: Callable[[Draw, Model, Users], Operation]
    backlog: Callable[[Model], int] | None = None
    """For the forester's kinds: what waits for it; each waiting element adds to the weight, so the
    queues drain about as fast as users fill them."""

    def weight_in(self, model: Model) -> int:
        return self.weight + (self.backlog(model) if self.backlog is not None else 0)


# ----------------------------------------------------------------------------- shared draws


def _tree(draw: Draw, model: Model) -> Pubkey:
    return draw(st.sampled_from(sorted(model.state_trees, key=bytes)))


def _plain(model: Model, users: Users) -> dict[int, list[LiveAccount]]:
    """Each user's live accounts without data or address."""
    found: dict[int, list[LiveAccount]] = {}
    for index, key in enumerate(users.keys):
        mine = [a for a in model.accounts_of(key, token=False) if a.address is None]
        if mine:
            found[index] = mine
    return found


def _holders(model: Model, users: Users, *, minimum: int) -> dict[int, list[LiveAccount]]:
    return {u: accounts for u, accounts in _plain(model, users).items() if len(accounts) >= minimum}


# ----------------------------------------------------------------------------- compressed SOL


def _compress(draw: Draw, model: Model, users: Users) -> Operation:
    """Lamports compressed into one to eight accounts of one owner (many small ones make merges possible)."""
    user = draw(st.integers(0, len(users.keys) - 1))
    owner = users.keys[draw(st.sampled_from([user, other_user(draw, users, user)]))]
    count = draw(st.integers(1, 8))
    outputs = tuple(Output(owner, draw(st.integers(10_000, 10**9)), _tree(draw, model)) for _ in range(count))
    return SolInvoke("compress-sol", user, outputs=outputs, compress=sum(o.lamports for o in outputs))


def _transfer(draw: Draw, model: Model, users: Users) -> Operation:
    user = draw(st.sampled_from(sorted(_plain(model, users))))
    inputs = pick(draw, _plain(model, users)[user], (1, 2, 3, 4))
    total = sum(a.lamports for a in inputs)
    amount = draw(st.integers(1, total)) if total else 0
    outputs = [Output(users.keys[other_user(draw, users, user)], amount, _tree(draw, model))]
    if total - amount:
        outputs.append(Output(users.keys[user], total - amount, _tree(draw, model)))
    return SolInvoke("transfer", user, tuple(a.hash for a in inputs), tuple(outputs))


def _merge(draw: Draw, model: Model, users: Users, *, eight: bool = False) -> Operation:
    """Small accounts of one owner into one: 2, 3 or 4 of them, or (`merge-8`) eight, the largest circuit."""
    holders = _holders(model, users, minimum=8 if eight else 2)
    user = draw(st.sampled_from(sorted(holders)))
    inputs = pick(draw, holders[user], (8,) if eight else (2, 3, 4))
    output = Output(users.keys[user], sum(a.lamports for a in inputs), _tree(draw, model))
    return SolInvoke("merge-8" if eight else "merge", user, tuple(a.hash for a in inputs), (output,))


def _decompress(draw: Draw, model: Model, users: Users) -> Operation:
    user = draw(st.sampled_from(sorted(_plain(model, users))))
    inputs = pick(draw, _plain(model, users)[user], (1, 2))
    total = sum(a.lamports for a in inputs)
    amount = draw(st.integers(1, max(total, 1)))
    change = () if amount == total else (Output(users.keys[user], total - amount, _tree(draw, model)),)
    return SolInvoke("decompress", user, tuple(a.hash for a in inputs), change, decompress=amount)


def _new_addresses(draw: Draw, model: Model, users: Users) -> Operation:
    """New addresses alone (non-inclusion proof); the accounts that carry them get compressed lamports."""
    user = draw(st.integers(0, len(users.keys) - 1))
    seeds = tuple(free_seed(draw, model) for _ in range(draw(st.integers(1, 2))))
    outputs = tuple(Output(users.keys[user], draw(st.integers(0, 10**8)), _tree(draw, model),
                              address_of(seed, model.address_tree_key)) for seed in seeds)
    compress = sum(o.lamports for o in outputs) or None
    return SolInvoke("new-address", user, outputs=outputs, seeds=seeds, compress=compress)


def _new_addresses_with_inputs(draw: Draw, model: Model, users: Users) -> Operation:
    """New addresses and spent accounts in one proof (a combined circuit). The accounts that carry two
    new addresses share one tree: the v1 program matches an output's address by its position among the
    addresses but removes it at that position among all inputs' addresses, so with address-less
    inputs before them, outputs written out of seed order (two trees can reorder them) fail 6006."""
    user = draw(st.sampled_from(sorted(_plain(model, users))))
    inputs = pick(draw, _plain(model, users)[user], (1, 2, 3, 4))
    seeds = tuple(free_seed(draw, model) for _ in range(draw(st.integers(1, 2))))
    total = sum(a.lamports for a in inputs)
    first = draw(st.integers(0, total))
    shares = [first, total - first] if len(seeds) == 2 else [total]
    tree = _tree(draw, model)
    outputs = tuple(Output(users.keys[user], share, tree, address_of(seed, model.address_tree_key))
                    for seed, share in zip(seeds, shares, strict=True))
    return SolInvoke("new-address-with-inputs", user, tuple(a.hash for a in inputs), outputs, seeds)


def _addressed(model: Model, users: Users) -> list[LiveAccount]:
    return [a for a in model.live.values()
            if a.address is not None and a.token is None and users.index(a.owner) is not None]


def _move_addressed(draw: Draw, model: Model, users: Users) -> Operation:
    """An account with an address spent into a new one that keeps the address (its owner may change)."""
    account = draw(st.sampled_from(sorted(_addressed(model, users), key=lambda a: a.hash)))
    user = users.index(account.owner)
    assert user is not None
    owner = draw(st.sampled_from([user, other_user(draw, users, user)]))
    output = Output(users.keys[owner], account.lamports, _tree(draw, model), account.address)
    return SolInvoke("move-addressed", user, (account.hash,), (output,))


def _double_spend(draw: Draw, model: Model, users: Users) -> Operation:
    spent = [a for a in model.spent.values()
             if a.token is None and a.address is None and users.index(a.owner) is not None]
    account = draw(st.sampled_from(sorted(spent, key=lambda a: a.hash)))
    return DoubleSpend(users.index(account.owner) or 0, account.hash)


def _spendable_twice(model: Model, users: Users) -> bool:
    return any(a.token is None and a.address is None and users.index(a.owner) is not None for a in model.spent.values())


# ----------------------------------------------------------------------------- the forester and setup


def _nullify(draw: Draw, model: Model, users: Users) -> Operation:
    waiting = list(model.spent)
    return Nullify(waiting[draw(st.integers(0, min(2, len(waiting) - 1)))])  # mostly the oldest


def _insert_address(draw: Draw, model: Model, users: Users) -> Operation:
    waiting = model.queued_addresses
    return InsertAddress(waiting[draw(st.integers(0, min(2, len(waiting) - 1)))])


def _create_mint(draw: Draw, model: Model, users: Users) -> Operation:
    number = len(model.mints)
    return CreateMint(number, draw(st.integers(0, 9)), number == 0 or draw(st.booleans()))


def _mint(draw: Draw, model: Model) -> Pubkey:
    return draw(st.sampled_from(sorted(model.mints, key=bytes)))


def _spl_mint(draw: Draw, model: Model, users: Users) -> Operation:
    return SplMint(_mint(draw, model), draw(st.integers(0, len(users.keys) - 1)), draw(st.integers(1, 10**9)))


def _mint_to(draw: Draw, model: Model, users: Users) -> Operation:
    recipients = draw(st.lists(st.tuples(st.integers(0, len(users.keys) - 1), st.integers(1, 10**9)),
                               min_size=1, max_size=3))
    return MintTo(_mint(draw, model), tuple(recipients), _tree(draw, model))


# ----------------------------------------------------------------------------- compressed tokens


def _tokens(model: Model, users: Users, *, state: str = "initialized", delegated: bool | None = None,
            freezable: bool = False) -> dict[tuple[int, Pubkey], list[LiveAccount]]:
    """(user, mint) -> that user's token accounts of the mint in `state` (and with or without a delegate)."""
    found: dict[tuple[int, Pubkey], list[LiveAccount]] = {}
    for account in sorted(model.live.values(), key=lambda a: a.hash):
        token = account.token
        if token is None or token.state != state:
            continue
        if delegated is not None and (token.delegate is not None) != delegated:
            continue
        user, mint = users.index(Pubkey.from_bytes(token.owner)), Pubkey.from_bytes(token.mint)
        if user is None or (freezable and not model.mints[mint].freezable):
            continue
        found.setdefault((user, mint), []).append(account)
    return found


def _amounts(inputs: Sequence[LiveAccount]) -> int:
    return sum(a.token.amount for a in inputs if a.token is not None)


def _token_transfer(draw: Draw, model: Model, users: Users) -> Operation:
    user, mint, inputs = group(draw, _tokens(model, users), ACCOUNT_COUNTS)
    total = _amounts(inputs)
    amount = draw(st.integers(1, total))
    outputs = [(other_user(draw, users, user), amount, _tree(draw, model))]
    if total - amount:
        outputs.append((user, total - amount, _tree(draw, model)))
    return TokenTransfer("token-transfer", mint, user, tuple(a.hash for a in inputs), tuple(outputs))


def _delegated(model: Model, users: Users) -> dict[tuple[int, Pubkey], list[LiveAccount]]:
    return _tokens(model, users, delegated=True)


def _delegated_transfer(draw: Draw, model: Model, users: Users) -> Operation:
    owner, mint, inputs = group(draw, _delegated(model, users), (1, 2))
    delegates = {users.index(Pubkey.from_bytes(a.token.delegate)) for a in inputs if a.token and a.token.delegate}
    if len(delegates) != 1:  # one signer: keep the inputs of the first input's delegate
        first = inputs[0].token.delegate if inputs[0].token else None
        inputs = [a for a in inputs if a.token is not None and a.token.delegate == first]
    delegate = users.index(Pubkey.from_bytes(inputs[0].token.delegate)) if inputs[0].token else None
    total = _amounts(inputs)
    amount = draw(st.integers(1, total))
    outputs = [(other_user(draw, users, owner), amount, _tree(draw, model))]
    if total - amount:
        outputs.append((owner, total - amount, _tree(draw, model)))
    return TokenTransfer("delegated-transfer", mint, delegate or 0, tuple(a.hash for a in inputs), tuple(outputs),
                         owner=owner)


def _approve(draw: Draw, model: Model, users: Users) -> Operation:
    user, mint, inputs = group(draw, _tokens(model, users), (1, 2))
    amount = draw(st.integers(1, _amounts(inputs)))
    return Approve(mint, user, tuple(a.hash for a in inputs), other_user(draw, users, user), amount, _tree(draw, model))


def _revoke(draw: Draw, model: Model, users: Users) -> Operation:
    user, mint, inputs = group(draw, _delegated(model, users), (1, 2))
    return Revoke(mint, user, tuple(a.hash for a in inputs), _tree(draw, model))


def _freeze(draw: Draw, model: Model, users: Users, *, thaw: bool = False) -> Operation:
    groups = _tokens(model, users, state="frozen" if thaw else "initialized", freezable=True)
    user, mint, inputs = group(draw, groups, (1, 2))
    return FreezeOrThaw(mint, user, tuple(a.hash for a in inputs), _tree(draw, model), thaw=thaw)


def _burn(draw: Draw, model: Model, users: Users) -> Operation:
    user, mint, inputs = group(draw, _tokens(model, users), (1, 2))
    return Burn(mint, user, tuple(a.hash for a in inputs), draw(st.integers(1, _amounts(inputs))), _tree(draw, model))


def _decompress_spl(draw: Draw, model: Model, users: Users) -> Operation:
    user, mint, inputs = group(draw, _tokens(model, users), (1, 2))
    total = _amounts(inputs)
    amount = draw(st.integers(1, total))
    change = () if amount == total else ((user, total - amount, _tree(draw, model)),)
    return TokenTransfer("decompress-spl", mint, user, tuple(a.hash for a in inputs), change, decompress=amount)


KINDS: dict[str, Kind] = {
    "create-tree": Kind(3, lambda m, u: len(m.state_trees) < MAX_TREES, lambda d, m, u: CreateTree(len(m.state_trees))),
    "create-mint": Kind(3, lambda m, u: len(m.mints) < MAX_MINTS, _create_mint),
    "compress-sol": Kind(14, lambda m, u: True, _compress),
    "transfer": Kind(12, lambda m, u: bool(_plain(m, u)), _transfer),
    "merge": Kind(5, lambda m, u: bool(_holders(m, u, minimum=2)), _merge),
    "merge-8": Kind(2, lambda m, u: bool(_holders(m, u, minimum=8)), lambda d, m, u: _merge(d, m, u, eight=True)),
    "decompress": Kind(4, lambda m, u: bool(_plain(m, u)), _decompress),
    "new-address": Kind(4, lambda m, u: True, _new_addresses),
    "new-address-with-inputs": Kind(4, lambda m, u: bool(_plain(m, u)), _new_addresses_with_inputs),
    "move-addressed": Kind(3, lambda m, u: bool(_addressed(m, u)), _move_addressed),
    "double-spend": Kind(1, _spendable_twice, _double_spend),
    "nullify": Kind(4, lambda m, u: bool(m.spent), _nullify, lambda m: len(m.spent)),
    "insert-address": Kind(4, lambda m, u: bool(m.queued_addresses), _insert_address,
                           lambda m: len(m.queued_addresses)),
    "spl-mint": Kind(2, lambda m, u: bool(m.mints), _spl_mint),
    "mint-to": Kind(5, lambda m, u: bool(m.mints), _mint_to),
    "token-transfer": Kind(10, lambda m, u: bool(_tokens(m, u)), _token_transfer),
    "approve": Kind(3, lambda m, u: bool(_tokens(m, u)), _approve),
    "delegated-transfer": Kind(3, lambda m, u: bool(_delegated(m, u)), _delegated_transfer),
    "revoke": Kind(2, lambda m, u: bool(_delegated(m, u)), _revoke),
    "freeze": Kind(2, lambda m, u: bool(_tokens(m, u, freezable=True)), _freeze),
    "thaw": Kind(3, lambda m, u: bool(_tokens(m, u, state="frozen", freezable=True)),
                 lambda d, m, u: _freeze(d, m, u, thaw=True)),
    "burn": Kind(2, lambda m, u: bool(_tokens(m, u)), _burn),
    "compress-spl": Kind(3, has_spl, lambda d, m, u: compress_spl(d, m, u, _tree)),
    "decompress-spl": Kind(2, lambda m, u: bool(_tokens(m, u)), _decompress_spl),
}
"""Every kind the chain draws, by name (the name is the operation's `kind`)."""
