"""The spend-by-index judge puts before the programs only an account a user of the chain can sign for.

A queued account that no user can spend (an account held by a key that is not a user's) is one whose
refusal would say nothing of the place an indexer served: the programs refuse it wherever it is. (A
frozen token account is spent by its mint's freeze authority, a thaw: test_batched_tokens.py.) The
judge refuses to judge it (ValueError), and lists it as not signable.
The chain is today's (tests/ledger_chain/conftest.py), replayed; each test edits one account of the
replayed model (a holder) and puts it back.
"""

from __future__ import annotations

import dataclasses

import pytest
from csi_conformance.ledger_chain import Chain, Generated
from csi_conformance.ledger_chain.judge_queued import Queued, judge_spend_by_index, queued_accounts
from csi_conformance.ledger_chain.programs_0_28 import TodayPrograms
from csi_conformance.ledger_chain.replay import load_chain
from solders.pubkey import Pubkey

pytestmark = pytest.mark.chain

STRANGER = Pubkey.from_bytes(bytes([5]) * 32)
"""A key that is none of the chain's."""


@pytest.fixture(scope="module")
def today_chain(today_generated: Generated, today_programs: TodayPrograms) -> Chain:
    return load_chain(today_generated.folder, installation=today_programs)


def _live(chain: Chain, *, token: bool) -> Queued:
    return next(item for item in queued_accounts(chain) if not item.spent and (item.account.token is not None) == token)


def _judge_at_home(chain: Chain, item: Queued):
    return judge_spend_by_index(chain, item.account.hash, tree=item.account.tree, leaf_index=item.account.leaf_index)


def test_every_queued_account_of_the_chain_is_signable_and_accepted_at_its_place(today_chain: Chain) -> None:
    """The baseline the edits below depart from: the same accounts, unedited, are judged and accepted."""
    assert all(item.signable for item in queued_accounts(today_chain))
    for token in (False, True):
        assert _judge_at_home(today_chain, _live(today_chain, token=token)).accepted


def _edited(chain: Chain, monkeypatch: pytest.MonkeyPatch, item: Queued, **changes) -> Queued:
    account = dataclasses.replace(item.account, **changes)
    monkeypatch.setitem(chain.model.live, account.hash, account)
    (edited,) = (other for other in queued_accounts(chain) if other.account.hash == account.hash)
    return edited


@pytest.mark.parametrize("token", [False, True], ids=["plain", "token"])
def test_an_account_no_user_holds_is_not_signable_and_not_judged(today_chain: Chain, monkeypatch: pytest.MonkeyPatch,
                                                                 token: bool) -> None:
    item = _live(today_chain, token=token)
    if token:
        assert item.account.token is not None
        changes = {"token": dataclasses.replace(item.account.token, owner=bytes(STRANGER))}
    else:
        changes = {"owner": STRANGER}
    stranger = _edited(today_chain, monkeypatch, item, **changes)
    assert stranger.account.holder == STRANGER and not stranger.signable
    with pytest.raises(ValueError, match="no queued account of this chain that one of its users can spend"):
        _judge_at_home(today_chain, stranger)


def test_the_account_is_found_by_its_value_and_any_u32_index_is_put_before_the_programs(today_chain: Chain) -> None:
    """An indexer's answer carries its own bytes for a hash: equal to the chain's, never the same object."""
    item = _live(today_chain, token=False)
    same = bytes(bytearray(item.account.hash))
    assert same == item.account.hash and same is not item.account.hash
    tree = item.account.tree
    assert judge_spend_by_index(today_chain, same, tree=tree, leaf_index=item.account.leaf_index).accepted
    far = judge_spend_by_index(today_chain, same, tree=tree, leaf_index=2**32 - 1)
    assert (far.accepted, far.code) == (False, 14309)  # past what the queue received
    for index in (-1, 2**32, 2**40):
        with pytest.raises(ValueError, match="no u32"):
            judge_spend_by_index(today_chain, same, tree=tree, leaf_index=index)
