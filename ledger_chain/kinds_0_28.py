"""The kinds a chain of today's programs draws: v1 and batched trees mixed, as data like `kinds.KINDS`.

What today's programs take from this kit (found by running them, see README "The real chain"):
outputs into a v1 tree or a batched tree's output queue; spends of batched-tree accounts by index,
with no proof (transfers, merges, decompressions, token transfers and decompressions, and token
approve, revoke, freeze, thaw and burn: `batched_token_kinds`); compressed
tokens minted and compressed into either kind of tree. With the June 2025 verifying keys patched in
(`patched_programs.py`, the default) they also take v1 spends and new v1 addresses with real proofs
of the installed prover (`TODAY_KINDS`); with the published October 2025 keys they refuse those
(6043), drawn as a planned refusal (`OCTOBER_KEYS_KINDS`). A second spend by index of an account
already spent is a planned refusal on both (14307). An output queue and an input queue hold two
batches of 50 each and only the forester's batch append and nullify (which need proofs no package
here makes) empty them, so a tree whose queue is full is no longer drawn for outputs, or for spends.
"""

from __future__ import annotations

from csi_conformance.ledger_chain.batched_model import TodayModel
from csi_conformance.ledger_chain.batched_ops import (
    BatchedInvoke,
    BatchedTokenTransfer,
    DoubleSpendByIndex,
    RefusedV1Spend,
    queue_of,
)
from csi_conformance.ledger_chain.batched_proof_ops import V2Spend
from csi_conformance.ledger_chain.batched_token_kinds import BATCHED_TOKEN_KINDS
from csi_conformance.ledger_chain.draw_parts import (
    Draw,
    Users,
    compress_spl,
    free_seed,
    group,
    has_spl,
    other_user,
    pick,
    tree_with_room,
)
from csi_conformance.ledger_chain.kinds import Kind
from csi_conformance.ledger_chain.model import LiveAccount, Model
from csi_conformance.ledger_chain.operations import Operation, SolInvoke, address_of
from csi_conformance.ledger_chain.programs import STATE_TREE
from csi_conformance.ledger_chain.system import Output
from csi_conformance.ledger_chain.token_ops import CreateMint, MintTo, SplMint
from csi_conformance.ledger_proofs.circuits_v2 import PROVABLE
from hypothesis import strategies as st
from solders.pubkey import Pubkey

__all__ = ["OCTOBER_KEYS_KINDS", "TODAY_KINDS", "V1_PROVEN", "V2_PROVEN", "kinds_for"]

MAX_MINTS = 2
BY_INDEX_COUNTS = (1, 2, 3, 4, 8)


def _today(model: Model) -> TodayModel:
    assert isinstance(model, TodayModel)
    return model


def _queued(model: Model, users: Users, *, token: bool = False) -> dict[tuple[int, Pubkey | None], list[LiveAccount]]:
    """(user, mint or None) -> that user's live batched-tree accounts (plain ones, or token ones of a mint)."""
    found: dict[tuple[int, Pubkey | None], list[LiveAccount]] = {}
    for account in sorted(model.live.values(), key=lambda a: a.hash):
        if not _today(model).spendable(account.tree) or account.address is not None:
            continue
        if (account.token is not None) != token or (account.token is not None and (
                account.token.delegate or account.token.state != "initialized")):
            continue
        user = users.index(account.holder)
        if user is None:
            continue
        mint = Pubkey.from_bytes(account.token.mint) if account.token is not None else None
        found.setdefault((user, mint), []).append(account)
    return found


def _v1_plain(model: Model, users: Users) -> list[LiveAccount]:
    return [a for a in sorted(model.live.values(), key=lambda a: a.hash)
            if a.tree == STATE_TREE and a.token is None and a.address is None and users.index(a.owner) is not None]


# ----------------------------------------------------------------------------- compressed SOL


def _compress(draw: Draw, model: Model, users: Users) -> Operation:
    """Lamports compressed into accounts of one owner, each in a v1 tree or an output queue."""
    user = draw(st.integers(0, len(users.keys) - 1))
    owner = users.keys[draw(st.sampled_from([user, other_user(draw, users, user)]))]
    outputs = tuple(Output(owner, draw(st.integers(10_000, 10**9)), tree_with_room(draw, model, 8))
                    for _ in range(draw(st.integers(1, 8))))
    return BatchedInvoke("compress-sol", user, outputs=outputs, compress=sum(o.lamports for o in outputs))


def _transfer(draw: Draw, model: Model, users: Users, *, merge: bool = False) -> Operation:
    groups = _queued(model, users)
    if merge:
        groups = {k: v for k, v in groups.items() if len(v) >= 2}
    user, _, inputs = group(draw, groups, (2, 3, 4, 8) if merge else (1, 2, 3, 4))
    total = sum(a.lamports for a in inputs)
    if merge:
        return BatchedInvoke("merge-by-index", user, tuple(a.hash for a in inputs),
                             (Output(users.keys[user], total, tree_with_room(draw, model, 2)),))
    amount = draw(st.integers(1, total))
    outputs = [Output(users.keys[other_user(draw, users, user)], amount, tree_with_room(draw, model, 2))]
    if total - amount:
        outputs.append(Output(users.keys[user], total - amount, tree_with_room(draw, model, 2)))
    return BatchedInvoke("transfer-by-index", user, tuple(a.hash for a in inputs), tuple(outputs))


def _decompress(draw: Draw, model: Model, users: Users) -> Operation:
    user, _, inputs = group(draw, _queued(model, users), (1, 2))
    total = sum(a.lamports for a in inputs)
    amount = draw(st.integers(1, total))
    change = () if amount == total else (Output(users.keys[user], total - amount, tree_with_room(draw, model)),)
    return BatchedInvoke("decompress-by-index", user, tuple(a.hash for a in inputs), change, decompress=amount)


def _spent_plain(model: Model, users: Users) -> list[LiveAccount]:
    return sorted((a for a in _today(model).batched_spent()
                   if _today(model).spendable(a.tree) and a.token is None and a.address is None
                   and users.index(a.owner) is not None),
                  key=lambda a: a.hash)


def _double_spend(draw: Draw, model: Model, users: Users) -> Operation:
    account = draw(st.sampled_from(_spent_plain(model, users)))
    return DoubleSpendByIndex(users.index(account.owner) or 0, account.hash)


def _v1_groups(model: Model, users: Users) -> dict[int, list[LiveAccount]]:
    """Each user's plain accounts of the v1 tree, spent with a real proof."""
    found: dict[int, list[LiveAccount]] = {}
    for account in _v1_plain(model, users):
        found.setdefault(users.index(account.owner) or 0, []).append(account)
    return found


def _v1_transfer(draw: Draw, model: Model, users: Users) -> Operation:
    """One to four v1 accounts of one user spent with a real inclusion proof, into the v1 tree."""
    groups = _v1_groups(model, users)
    user = draw(st.sampled_from(sorted(groups)))
    inputs = pick(draw, groups[user], (1, 2, 3, 4))
    total = sum(a.lamports for a in inputs)
    amount = draw(st.integers(1, total))
    outputs = [Output(users.keys[other_user(draw, users, user)], amount, STATE_TREE)]
    if total - amount:
        outputs.append(Output(users.keys[user], total - amount, STATE_TREE))
    return SolInvoke("v1-transfer", user, tuple(a.hash for a in inputs), tuple(outputs))


def _v1_new_address(draw: Draw, model: Model, users: Users, *, with_inputs: bool = False) -> Operation:
    """One or two new addresses of the v1 address tree (a real non-inclusion proof), alone or with one to four
    v1 accounts of the user (a combined proof); the accounts that carry them go to the v1 tree."""
    inputs: list[LiveAccount] = []
    if with_inputs:
        groups = _v1_groups(model, users)
        user = draw(st.sampled_from(sorted(groups)))
        inputs = pick(draw, groups[user], (1, 2, 3, 4))
    else:
        user = draw(st.integers(0, len(users.keys) - 1))
    seeds = tuple(free_seed(draw, model) for _ in range(draw(st.integers(1, 2))))
    if with_inputs:
        total = sum(a.lamports for a in inputs)
        first = draw(st.integers(0, total))
        shares = [first, total - first] if len(seeds) == 2 else [total]
    else:
        shares = [draw(st.integers(0, 10**8)) for _ in seeds]
    outputs = tuple(Output(users.keys[user], share, STATE_TREE, address_of(seed, model.address_tree_key))
                    for seed, share in zip(seeds, shares, strict=True))
    compress = None if with_inputs else sum(o.lamports for o in outputs) or None
    return SolInvoke("v1-new-address-with-inputs" if with_inputs else "v1-new-address", user,
                     tuple(a.hash for a in inputs), outputs, seeds, compress=compress)


def _v1_spend(draw: Draw, model: Model, users: Users) -> Operation:
    account = draw(st.sampled_from(_v1_plain(model, users)))
    user = users.index(account.owner) or 0
    output = Output(users.keys[other_user(draw, users, user)], account.lamports, STATE_TREE)
    return RefusedV1Spend(SolInvoke("transfer", user, (account.hash,), (output,)))


# ----------------------------------------------------------------------------- compressed tokens


def _mint(draw: Draw, model: Model) -> Pubkey:
    return draw(st.sampled_from(sorted(model.mints, key=bytes)))


def _create_mint(draw: Draw, model: Model, users: Users) -> Operation:
    return CreateMint(len(model.mints), draw(st.integers(0, 9)), not model.mints or draw(st.booleans()))


def _mint_to(draw: Draw, model: Model, users: Users) -> Operation:
    recipients = draw(st.lists(st.tuples(st.integers(0, len(users.keys) - 1), st.integers(1, 10**9)),
                               min_size=1, max_size=3))
    return MintTo(_mint(draw, model), tuple(recipients), queue_of(tree_with_room(draw, model, 3)))


def _spl_mint(draw: Draw, model: Model, users: Users) -> Operation:
    return SplMint(_mint(draw, model), draw(st.integers(0, len(users.keys) - 1)), draw(st.integers(1, 10**9)))


def _output_queue(draw: Draw, model: Model) -> Pubkey:
    """Where an output goes: the v1 tree, or the output queue of a batched tree with room."""
    return queue_of(tree_with_room(draw, model))


def _token_transfer(draw: Draw, model: Model, users: Users, *, decompress: bool = False) -> Operation:
    user, mint, inputs = group(draw, _queued(model, users, token=True), (1, 2) if decompress else BY_INDEX_COUNTS)
    assert mint is not None
    total = sum(a.token.amount for a in inputs if a.token is not None)
    amount = draw(st.integers(1, total))
    if decompress:
        change = () if amount == total else ((user, total - amount, tree_with_room(draw, model)),)
        return BatchedTokenTransfer("decompress-spl-by-index", mint, user, tuple(a.hash for a in inputs), change,
                                    decompress=amount)
    outputs = [(other_user(draw, users, user), amount, tree_with_room(draw, model, 2))]
    if total - amount:
        outputs.append((user, total - amount, tree_with_room(draw, model, 2)))
    return BatchedTokenTransfer("token-transfer-by-index", mint, user, tuple(a.hash for a in inputs), tuple(outputs))


V2_COUNTS = tuple(sorted(n for n, m in PROVABLE if not m))
"""Accounts a v2 inclusion proof of the installed prover of the v2 circuits takes (June 2025 keys)."""


def _appended(model: Model, users: Users) -> dict[tuple[int, Pubkey], list[LiveAccount]]:
    """(user, batched tree) -> that user's live plain accounts the forester appended to the tree, spendable by root
    (the tree's input queue has room for their nullifiers)."""
    today = _today(model)
    found: dict[tuple[int, Pubkey], list[LiveAccount]] = {}
    for account in sorted(model.live.values(), key=lambda a: a.hash):
        mirror = today.batched.get(account.tree)
        user = users.index(account.holder)
        if mirror is None or user is None or account.token is not None or account.address is not None \
                or account.leaf_index >= mirror.appended or not today.spendable(account.tree, max(V2_COUNTS)):
            continue
        found.setdefault((user, account.tree), []).append(account)
    return found


def _v2_transfer(draw: Draw, model: Model, users: Users) -> Operation:
    """Appended accounts of one user and tree, spent by root with a v2 proof, to another user and back."""
    groups = _appended(model, users)
    user, tree = draw(st.sampled_from(sorted(groups, key=lambda k: (k[0], bytes(k[1])))))
    inputs = pick(draw, groups[(user, tree)], V2_COUNTS)
    total = sum(a.lamports for a in inputs)
    amount = draw(st.integers(1, total))
    outputs = [Output(users.keys[other_user(draw, users, user)], amount, STATE_TREE)]
    if total - amount:
        outputs.append(Output(users.keys[user], total - amount, STATE_TREE))
    return V2Spend("v2-transfer", user, tuple(a.hash for a in inputs), tuple(outputs))


def _has_queued(model: Model, users: Users, *, token: bool = False, minimum: int = 1) -> bool:
    return any(len(v) >= minimum for v in _queued(model, users, token=token).values())


TODAY_KINDS: dict[str, Kind] = {
    "create-mint": Kind(3, lambda m, u: len(m.mints) < MAX_MINTS, _create_mint),
    "compress-sol": Kind(14, lambda m, u: True, _compress),
    "transfer-by-index": Kind(12, lambda m, u: _has_queued(m, u), _transfer),
    "merge-by-index": Kind(5, lambda m, u: _has_queued(m, u, minimum=2),
                           lambda d, m, u: _transfer(d, m, u, merge=True)),
    "decompress-by-index": Kind(4, lambda m, u: _has_queued(m, u), _decompress),
    "double-spend-by-index": Kind(1, lambda m, u: bool(_spent_plain(m, u)), _double_spend),
    "v1-transfer": Kind(6, lambda m, u: bool(_v1_plain(m, u)), _v1_transfer),
    "v1-new-address": Kind(3, lambda m, u: True, _v1_new_address),
    "v1-new-address-with-inputs": Kind(2, lambda m, u: bool(_v1_plain(m, u)),
                                       lambda d, m, u: _v1_new_address(d, m, u, with_inputs=True)),
    "spl-mint": Kind(2, lambda m, u: bool(m.mints), _spl_mint),
    "mint-to": Kind(5, lambda m, u: bool(m.mints), _mint_to),
    "compress-spl": Kind(3, has_spl, lambda d, m, u: compress_spl(d, m, u, _output_queue)),
    "token-transfer-by-index": Kind(10, lambda m, u: _has_queued(m, u, token=True), _token_transfer),
    "decompress-spl-by-index": Kind(2, lambda m, u: _has_queued(m, u, token=True),
                                    lambda d, m, u: _token_transfer(d, m, u, decompress=True)),
    **BATCHED_TOKEN_KINDS,
    "v2-transfer": Kind(6, lambda m, u: bool(_appended(m, u)), _v2_transfer),
}
"""Every kind a chain of today's programs with the June 2025 verifying keys draws, by name (a v2 transfer once
the forester has appended accounts to a batched tree)."""

V1_PROVEN = ("v1-transfer", "v1-new-address", "v1-new-address-with-inputs")
V2_PROVEN = ("v2-transfer",)
"""Drawn once the forester (kit setup) has appended accounts: a chain without batch keys has none to spend."""
OCTOBER_KEYS_KINDS: dict[str, Kind] = {
    **{name: kind for name, kind in TODAY_KINDS.items() if name not in V1_PROVEN + V2_PROVEN},
    "v1-spend-refused": Kind(1, lambda m, u: bool(_v1_plain(m, u)), _v1_spend),
}
"""The kinds of a chain of the published 0.28.3 programs, whose verifier refuses the installed prover's proofs."""


def kinds_for(v1_proofs: bool) -> dict[str, Kind]:
    """The kinds of today's programs, by whether their verifier accepts the installed prover's v1 proofs."""
    return TODAY_KINDS if v1_proofs else OCTOBER_KEYS_KINDS
