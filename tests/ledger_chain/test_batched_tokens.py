"""Token approve, revoke, freeze, thaw and burn on today's programs (0.28.3), of batched-tree accounts spent
by index: a small chain of a fixed plan whose programs log each instruction, whose model agrees with the
accounts (checked after every transaction, and again on replay), the same bytes for a seed, and which
the reference, over real HTTP as `csi serve --transactions` serves it, answers as the model holds it:
delegates, frozen state, burned amounts. The drawn chain draws these kinds too (test_today.py)."""

from __future__ import annotations

import struct
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from csi_conformance.groundwork.base58 import b58encode
from csi_conformance.ledger_chain.batched_token_ops import (
    ApproveByIndex,
    BurnByIndex,
    FreezeOrThawByIndex,
    RevokeByIndex,
)
from csi_conformance.ledger_chain.chain import Chain
from csi_conformance.ledger_chain.draw import drawn
from csi_conformance.ledger_chain.draw_parts import Users
from csi_conformance.ledger_chain.generation import write_chain
from csi_conformance.ledger_chain.judge_queued import judge_spend_by_index, queued_accounts
from csi_conformance.ledger_chain.kinds_0_28 import TODAY_KINDS
from csi_conformance.ledger_chain.model import LiveAccount
from csi_conformance.ledger_chain.operations import Operation
from csi_conformance.ledger_chain.programs import STATE_TREE, token_pool
from csi_conformance.ledger_chain.programs_0_28 import BATCHED_TREES, TodayPrograms
from csi_conformance.ledger_chain.proofs import ChainProver
from csi_conformance.ledger_chain.replay import load_chain, read_chain
from csi_conformance.ledger_chain.token_ops import CreateMint, MintTo
from csi_conformance.ledger_ingest import LedgerSource, decode_transaction, transaction_changes
from csi_conformance.reference_server.app import create_app
from csi_conformance.reference_server.ingest import ingest_source
from csi_conformance.reference_server.methods.registry import call
from csi_conformance.reference_server.options import ServerOptions
from csi_conformance.reference_server.serve import running_server
from csi_conformance.schema import Contract
from hypothesis import strategies as st
from solders.pubkey import Pubkey

pytestmark = pytest.mark.chain

SEED = 38
FIRST, SECOND = BATCHED_TREES
LOGGED = {"approve-by-index": "Approve", "revoke-by-index": "Revoke", "freeze-by-index": "Freeze",
          "thaw-by-index": "Thaw", "burn-by-index": "Burn"}
"""Each kind, and the instruction name the token program logs for it (`Program log: Instruction: …`)."""


class Plan:
    """The chain's steps; each is drawn over the model as the steps before left it (hashes come from events)."""

    def __init__(self, chain: Chain) -> None:
        self.chain = chain
        self.kinds: Counter[str] = Counter()

    def run(self, operation: Operation) -> None:
        self.chain.advance(1)
        self.chain.run(operation)
        self.kinds[operation.kind] += 1

    def held(self, user: int, amount: int) -> bytes:
        """The hash of user `user`'s live token account of `amount`."""
        owner = bytes(self.chain.keys.user(user).pubkey())
        return next(a.hash for a in self.chain.model.live.values()
                    if a.token is not None and a.token.owner == owner and a.token.amount == amount)

    def steps(self) -> None:
        self.run(CreateMint(0, 6, True))
        mint = next(iter(self.chain.model.mints))
        self.run(MintTo(mint, ((0, 1000), (0, 600), (1, 400), (2, 50)), BATCHED_TREES[FIRST]))
        self.run(ApproveByIndex(mint, 0, (self.held(0, 1000),), 1, 300, SECOND))  # 300 delegated, 700 change
        self.run(RevokeByIndex(mint, 0, (self.held(0, 300),), FIRST))
        self.run(ApproveByIndex(mint, 0, (self.held(0, 600),), 2, 600, FIRST))  # all of it: no change
        self.run(FreezeOrThawByIndex(mint, 1, (self.held(1, 400),), SECOND))
        self.run(FreezeOrThawByIndex(mint, 0, (self.held(0, 600), self.held(0, 700)), SECOND))
        self.run(FreezeOrThawByIndex(mint, 0, (self.held(0, 700),), STATE_TREE, thaw=True))
        self.run(BurnByIndex(mint, 2, (self.held(2, 50),), 20, SECOND))


def make_chain(programs: TodayPrograms, out: Path) -> Chain:
    """The plan's chain, written to `out` as `csi chain generate` writes one."""
    chain = Chain(SEED, programs, ChainProver())
    plan = Plan(chain)
    plan.steps()
    chain.close_block()
    write_chain(out, chain, sum(plan.kinds.values()), plan.kinds)
    return chain


@pytest.fixture(scope="module")
def planned(today_programs: TodayPrograms, tmp_path_factory: pytest.TempPathFactory) -> tuple[Chain, Path]:
    folder = tmp_path_factory.mktemp("batched-tokens") / "chain"
    return make_chain(today_programs, folder), folder


def _transactions(folder: Path) -> Iterator[tuple[str, dict[str, Any], int, int]]:
    """(kind, block entry, slot, block time) of every transaction, in order."""
    kinds = iter(t["kind"] for t in read_chain(folder).manifest["transactions"])
    for slot, block in read_chain(folder).blocks():
        for entry in block["transactions"]:
            yield next(kinds), entry, slot, block["blockTime"]


def test_the_programs_log_each_instruction_and_spend_its_inputs_by_index(planned: tuple[Chain, Path]) -> None:
    logged: set[str] = set()
    for kind, entry, slot, block_time in _transactions(planned[1]):
        if kind not in LOGGED:
            continue
        assert entry["meta"]["err"] is None, kind
        names = [line.removeprefix("Program log: Instruction: ") for line in entry["meta"]["logMessages"]
                 if line.startswith("Program log: Instruction: ")]
        assert names[0] == LOGGED[kind] and "InsertIntoQueues" in names, (kind, names)
        changes = transaction_changes(decode_transaction(entry, slot=slot, block_time=block_time))
        assert changes.queued_nullifiers and all(n.prove_by_index for n in changes.queued_nullifiers), kind
        assert {Pubkey.from_bytes(n.tree) for n in changes.queued_nullifiers} <= set(BATCHED_TREES)
        logged.add(LOGGED[kind])
    assert logged == set(LOGGED.values())


def _tokens(chain: Chain) -> dict[bytes, LiveAccount]:
    return {h: a for h, a in chain.model.live.items() if a.token is not None}


def test_the_model_holds_the_planned_states_and_replays_to_them(planned: tuple[Chain, Path],
                                                               today_programs: TodayPrograms) -> None:
    chain, folder = planned
    users = chain.keys.users
    held = sorted((users.index(Pubkey.from_bytes(a.token.owner)), a.token.amount, a.token.state,
                   None if a.token.delegate is None else users.index(Pubkey.from_bytes(a.token.delegate)),
                   a.tree == STATE_TREE) for a in _tokens(chain).values() if a.token is not None)
    assert held == [(0, 300, "initialized", None, False), (0, 600, "frozen", 2, False),
                    (0, 700, "initialized", None, True), (1, 400, "frozen", None, False),
                    (2, 30, "initialized", None, False)]
    again = load_chain(folder, installation=today_programs)
    assert _tokens(again) == _tokens(chain)
    assert {t: m.outputs for t, m in again.model.batched.items()} == \
        {t: m.outputs for t, m in chain.model.batched.items()}


def test_the_pool_holds_what_is_compressed_after_the_burn(planned: tuple[Chain, Path]) -> None:
    """Burn takes from the pool as much as from the accounts: the SPL pool holds their sum (2,050 minted, 20 burned)."""
    chain = planned[0]
    mint = next(iter(chain.model.mints))
    pool = struct.unpack_from("<Q", chain.runtime.data(token_pool(mint)), 64)[0]
    assert pool == sum(a.token.amount for a in _tokens(chain).values() if a.token is not None) == 2_030


def test_a_second_run_is_byte_identical(planned: tuple[Chain, Path], today_programs: TodayPrograms,
                                        tmp_path: Path) -> None:
    make_chain(today_programs, tmp_path / "again")
    names = sorted(p.name for p in planned[1].iterdir())
    assert sorted(p.name for p in (tmp_path / "again").iterdir()) == names
    for name in names:
        assert (tmp_path / "again" / name).read_bytes() == (planned[1] / name).read_bytes(), name


# ----------------------------------------------------------------------------- what the reference serves

Dispatch = Callable[[str, Any], Any]


def _rpc(url: str, method: str, params: dict[str, Any]) -> Any:
    answer = httpx.post(url, json={"jsonrpc": "2.0", "id": 1, "method": method, "params": params}).json()
    return answer["result"]["value"]


def served(dispatch: Dispatch, users: list[Pubkey]) -> dict[str, Any]:
    """Each user's token accounts by owner and by delegate, and balances, as a server over real HTTP answers."""
    options, contract = ServerOptions(), Contract.default()
    found: dict[str, Any] = {}
    with running_server(create_app(dispatch, options, contract=contract)) as url:
        for user in users:
            for method, key in (("getCompressedTokenAccountsByOwner", "owner"),
                                ("getCompressedTokenAccountsByDelegate", "delegate")):
                items = _rpc(url, method, {key: str(user)})["items"]
                found[f"{key} {user}"] = sorted(
                    (i["account"]["hash"], i["account"]["tree"], i["account"]["leafIndex"], i["tokenData"]["amount"],
                     i["tokenData"]["state"], i["tokenData"]["delegate"]) for i in items)
            balances = _rpc(url, "getCompressedTokenBalancesByOwner", {"owner": str(user)})["token_balances"]
            found[f"balance {user}"] = sorted((b["mint"], b["balance"]) for b in balances)
    return found


def expected(chain: Chain) -> dict[str, Any]:
    """The same, as the kit's model holds it."""

    def row(a: LiveAccount) -> tuple[Any, ...]:
        assert a.token is not None
        delegate = None if a.token.delegate is None else str(Pubkey.from_bytes(a.token.delegate))
        return (b58encode(a.hash), str(a.tree), a.leaf_index, a.token.amount, a.token.state, delegate)

    found: dict[str, Any] = {}
    tokens = [a for a in _tokens(chain).values() if a.token is not None]
    for user in chain.keys.users:
        mine = [a for a in tokens if a.token is not None and a.token.owner == bytes(user)]
        found[f"owner {user}"] = sorted(row(a) for a in mine)
        found[f"delegate {user}"] = sorted(row(a) for a in tokens
                                           if a.token is not None and a.token.delegate == bytes(user))
        sums: Counter[str] = Counter()
        for a in mine:
            if a.token is not None:
                sums[str(Pubkey.from_bytes(a.token.mint))] += a.token.amount
        found[f"balance {user}"] = sorted(sums.items())
    return found


@pytest.fixture(scope="module")
def reference(planned: tuple[Chain, Path]) -> Dispatch:
    """The reference's methods over the chain's blocks, as `csi serve --transactions DIR` answers them."""
    ledger = ingest_source(LedgerSource.chain(planned[1])).ledger
    options, contract = ServerOptions(), Contract.default()
    return lambda method, params: call(ledger, method, params, options, contract)


def test_the_reference_serves_delegates_frozen_state_and_balances(planned: tuple[Chain, Path],
                                                                  reference: Dispatch) -> None:
    chain = planned[0]
    answers = served(reference, chain.keys.users)
    assert answers == expected(chain)
    assert any(row[4] == "frozen" and row[5] for rows in answers.values() for row in rows if len(row) == 6)


def _forgets_freezes(real: Dispatch) -> Dispatch:
    """A server that serves every token account as initialized."""
    def dispatch(method: str, params: Any) -> Any:
        answer = real(method, params)
        for item in (answer.get("value", {}).get("items", []) if isinstance(answer, dict) else []):
            item["tokenData"]["state"] = "initialized"
        return answer
    return dispatch


def test_a_server_that_forgets_freezes_is_told_apart(planned: tuple[Chain, Path], reference: Dispatch) -> None:
    chain = planned[0]
    answers, model = served(_forgets_freezes(reference), chain.keys.users), expected(chain)
    users = chain.keys.users
    assert sorted(k for k in answers if answers[k] != model[k]) == \
        sorted([f"owner {users[0]}", f"owner {users[1]}", f"delegate {users[2]}"])


# ----------------------------------------------------------------------------- what the drawn chain may draw

SPENDING = ("token-transfer-by-index", "decompress-spl-by-index", *LOGGED)


def test_drawn_plans_spend_frozen_accounts_only_to_thaw_them(planned: tuple[Chain, Path]) -> None:
    """Over the plan's final state (frozen accounts beside unfrozen ones), every token kind that applies draws
    inputs in the state its instruction takes: a transfer of a frozen account is refused (14307, its hash is
    not the one the program rebuilds), a thaw of an unfrozen one too."""
    chain = planned[0]
    users = Users(tuple(chain.keys.users))
    applied = set()
    for name in SPENDING:
        kind = TODAY_KINDS[name]
        if not kind.applies(chain.model, users):
            continue
        applied.add(name)
        for seed in range(6):
            plan = drawn(st.composite(lambda draw, kind=kind: kind.plan(draw, chain.model, users))(), seed)
            states = {chain.model.live[h].token.state for h in plan.inputs}  # type: ignore[attr-defined, union-attr]
            assert states == {"frozen" if name == "thaw-by-index" else "initialized"}, (name, seed)
    assert {"token-transfer-by-index", "thaw-by-index", "freeze-by-index", "burn-by-index"} <= applied


def test_a_frozen_queued_account_is_judged_by_a_thaw_at_the_place_served(planned: tuple[Chain, Path]) -> None:
    """The freeze authority's thaw by index is the one spend of a frozen account: accepted where the chain holds
    it, refused one leaf further on."""
    chain = planned[0]
    frozen = [q for q in queued_accounts(chain)
              if not q.spent and q.account.token is not None and q.account.token.state == "frozen"]
    assert len(frozen) == 2 and all(q.signable for q in frozen)
    for item in frozen:
        account = item.account
        here = judge_spend_by_index(chain, account.hash, tree=account.tree, leaf_index=account.leaf_index)
        assert here.accepted and any("Instruction: Thaw" in line for line in here.logs), here.meaning
        beyond = judge_spend_by_index(chain, account.hash, tree=account.tree, leaf_index=account.leaf_index + 1)
        assert not beyond.accepted and beyond.code in (14307, 14309), beyond.meaning
