"""Judging where an indexer says a queued account is: a spend by index, simulated by today's programs.

An account of a batched state tree waits in the tree's output queue until the forester appends it;
until then a transaction spends it by index, with no proof (`batched_ops`): the program recomputes
the account's hash with the tree and leaf index the transaction names and finds that value at that
index of the tree's output queue, or refuses (14307: another value there, or zero once spent; 14309:
an index past what the queue received; 6042: a tree that is no batched state tree). So a spend by
index at the place an indexer served is the programs' word on that place: accepted only where the
chain holds the account, live. The spend is simulated over the chain's state and keeps nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from csi_conformance.ledger_chain.batched_model import TodayModel
from csi_conformance.ledger_chain.batched_ops import invoke_by_index, token_transfer_by_index
from csi_conformance.ledger_chain.batched_token_ops import thaw_by_index
from csi_conformance.ledger_chain.chain import COMPUTE_UNITS, Chain
from csi_conformance.ledger_chain.errors_0_28 import today_error_meaning
from csi_conformance.ledger_chain.judge import Verdict, panic_meaning
from csi_conformance.ledger_chain.model import LiveAccount
from csi_conformance.ledger_chain.programs import STATE_TREE
from csi_conformance.ledger_chain.programs_0_28 import BATCHED_TREES
from csi_conformance.ledger_chain.runtime import Executed
from csi_conformance.ledger_chain.system import Output
from solders.compute_budget import set_compute_unit_limit
from solders.message import Message
from solders.pubkey import Pubkey
from solders.transaction import Transaction

__all__ = ["Queued", "judge_spend_by_index", "queued_accounts"]


@dataclass(frozen=True)
class Queued:
    """An account the chain wrote into a batched tree's output queue: still there (live), or spent by index
    (its value zeroed). `signable`: a key of the chain can sign a spend of it (its holder; for a frozen token
    account, its mint's freeze authority, whose thaw spends it)."""

    account: LiveAccount
    queue: Pubkey
    spent: bool
    signable: bool


def queued_accounts(chain: Chain) -> list[Queued]:
    """Every account of the chain's output queues, live and spent, in hash order (none without batched trees)."""
    model = chain.model
    if not isinstance(model, TodayModel):
        return []
    users = set(chain.keys.users)
    found = [(account, False) for account in model.live.values() if account.tree in model.batched]
    found += [(account, True) for account in model.batched_spent()]
    return [Queued(account, model.batched[account.tree].queue, spent, _signable(account, users))
            for account, spent in sorted(found, key=lambda item: item[0].hash)]


def _signable(account: LiveAccount, users: set[Pubkey]) -> bool:
    return account.holder in users and (account.token is None or account.token.state in ("initialized", "frozen"))


def judge_spend_by_index(chain: Chain, hash_: bytes, *, tree: Pubkey, leaf_index: int) -> Verdict:
    """Simulate spending the queued account `hash_` by index as if it were at `leaf_index` of `tree`'s output
    queue (its owner signs, or for a frozen token account the freeze authority thaws it; the value goes to a v1
    tree, so no full output queue refuses it first).
    ValueError when `hash_` is no queued account a user of the chain can sign for, or the index no u32."""
    if not 0 <= leaf_index < 2**32:
        raise ValueError(f"leaf index {leaf_index} is no u32: no transaction can carry it")
    queued = next((item for item in queued_accounts(chain) if item.account.hash == hash_), None)
    if queued is None or not queued.signable:
        raise ValueError(f"0x{hash_.hex()} is no queued account of this chain that one of its users can spend")
    account = replace(queued.account, tree=tree, leaf_index=leaf_index)
    signer = chain.keys.signer_of(account.holder)
    queues = {**{key: mirror.queue for key, mirror in chain.model.state_trees.items()}, **BATCHED_TREES}
    if account.token is not None and account.token.state == "frozen":
        signer = chain.keys.treasurer
        ix = thaw_by_index(signer.pubkey(), account, tree=STATE_TREE, queues=queues)
    elif account.token is None:
        ix = invoke_by_index(payer=signer.pubkey(), inputs=[account],
                             outputs=[Output(signer.pubkey(), account.lamports, STATE_TREE)], queues=queues)
    else:
        ix = token_transfer_by_index(signer.pubkey(), Pubkey.from_bytes(account.token.mint), inputs=[account],
                                     outputs=[(signer.pubkey(), account.token.amount, STATE_TREE)], queues=queues)
    message = Message.new_with_blockhash([set_compute_unit_limit(COMPUTE_UNITS), ix], signer.pubkey(),
                                         chain.runtime.blockhash)
    return _verdict(chain.runtime.simulate(Transaction([signer], message, chain.runtime.blockhash)))


def _verdict(executed: Executed) -> Verdict:
    if executed.err is None:
        return Verdict(True, None, "accepted", executed.logs, executed.compute_units)
    code = executed.custom_code
    meaning = today_error_meaning(code, executed.logs) if code is not None else panic_meaning(executed)
    return Verdict(False, code, meaning, executed.logs, executed.compute_units)
