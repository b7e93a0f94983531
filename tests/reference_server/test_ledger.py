"""The ledger changes only by transactions, keeps hashes, seq and trees exact, and indexes live state."""

from __future__ import annotations

import hashlib

import pytest
from csi_conformance.ledger_crypto import (
    TOKEN_PROGRAM_ID,
    ZERO_HASHES,
    TokenDataFields,
    account_hash,
    account_hash_inputs,
    fold_path,
    hash_to_field,
    poseidon,
)
from csi_conformance.reference_server.generate import generate_scenario
from csi_conformance.reference_server.ledger import DEFAULT_STATE_TREE, Ledger
from csi_conformance.reference_server.records import NewAccount, PendingTransaction
from csi_conformance.reference_server.scenario import derive_signature, scenario_from_document

OWNER = hashlib.sha256(b"owner").digest()
MINT = hashlib.sha256(b"mint").digest()
HOLDER = hashlib.sha256(b"holder").digest()
DELEGATE = hashlib.sha256(b"delegate").digest()
ADDRESS = b"\0" + hashlib.sha256(b"address").digest()[1:]


def sig(n: int) -> bytes:
    return hashlib.sha512(n.to_bytes(4, "big")).digest()


def plain(lamports: int = 1, **kw) -> NewAccount:
    return NewAccount.plain(owner=OWNER, lamports=lamports, tree=DEFAULT_STATE_TREE, **kw)


def token(amount: int, delegate: bytes | None = None) -> NewAccount:
    fields = TokenDataFields(mint=MINT, owner=HOLDER, amount=amount, delegate=delegate)
    return NewAccount.token_account(token=fields, tree=DEFAULT_STATE_TREE)


def recompute(account) -> bytes:
    return account_hash(owner=account.owner, leaf_index=account.leaf_index, tree=account.tree,
                        lamports=account.lamports, address=account.address,
                        discriminator=account.discriminator, data_hash=account.data_hash)


def test_opening_appends_leaves_with_exact_index_seq_and_hash() -> None:
    ledger = Ledger()
    done = ledger.apply(PendingTransaction(sig(1), 10, 100, open=(plain(5), plain(0, address=ADDRESS),
                                                                   plain(7, discriminator=3, data=b"xyz"))))
    tree = ledger.state_trees[DEFAULT_STATE_TREE]
    accounts = [ledger.account(h) for h in done.opened]
    assert [(a.leaf_index, a.seq, a.slot_created) for a in accounts] == [(0, 1, 10), (1, 2, 10), (2, 3, 10)]
    assert accounts[2].data_hash == hash_to_field(b"xyz")
    for account in accounts:
        assert account.hash == recompute(account)
        assert tree.leaf(account.leaf_index) == account.hash
        assert fold_path(account.hash, account.leaf_index, tree.proof(account.leaf_index)) == tree.root
    assert tree.seq == 3
    assert int.from_bytes(ADDRESS, "big") in ledger.address_tree
    assert ledger.indexed_slot == 10


def test_closing_nullifies_the_leaf_and_unlists_the_account() -> None:
    ledger = Ledger()
    opened = ledger.apply(PendingTransaction(sig(1), 1, 1, open=(plain(5), plain(6)))).opened
    ledger.apply(PendingTransaction(sig(2), 2, 2, close=(opened[0],), open=(plain(7),)))
    tree = ledger.state_trees[DEFAULT_STATE_TREE]
    closed = ledger.account(opened[0])
    assert closed.closed and closed.closed_by == sig(2)
    assert tree.leaf(0) == ZERO_HASHES[0]
    # appends first, then nullifications: the new account's seq is 3, the tree's 4
    assert ledger.account(ledger.transaction(sig(2)).opened[0]).seq == 3
    assert tree.seq == 4
    assert ledger.live_by_hash(opened[0]) is None
    assert list(ledger.by_owner.keys(OWNER)) == sorted([opened[1], ledger.transaction(sig(2)).opened[0]])
    assert ledger.lamports_of_owner(OWNER) == 13


@pytest.mark.parametrize("case", ["unknown", "closed", "twice", "address", "backwards", "duplicate-sig"])
def test_invalid_transactions_raise_and_change_nothing(case: str) -> None:
    ledger = Ledger()
    first = ledger.apply(PendingTransaction(sig(1), 5, 1, open=(plain(1, address=ADDRESS), plain(2))))
    ledger.apply(PendingTransaction(sig(2), 6, 1, close=(first.opened[1],)))
    before = (ledger.state_trees[DEFAULT_STATE_TREE].root, ledger.address_tree.root, len(ledger.accounts))
    bad = {
        "unknown": PendingTransaction(sig(3), 7, 1, open=(plain(3),), close=(bytes(32),)),
        "closed": PendingTransaction(sig(3), 7, 1, close=(first.opened[1],)),
        "twice": PendingTransaction(sig(3), 7, 1, close=(first.opened[0], first.opened[0])),
        "address": PendingTransaction(sig(3), 7, 1, open=(plain(3, address=ADDRESS),)),
        "backwards": PendingTransaction(sig(3), 4, 1, open=(plain(3),)),
        "duplicate-sig": PendingTransaction(sig(1), 7, 1),
    }[case]
    with pytest.raises(ValueError, match=r"unknown|already|goes backwards"):
        ledger.apply(bad)
    after = (ledger.state_trees[DEFAULT_STATE_TREE].root, ledger.address_tree.root, len(ledger.accounts))
    assert after == before
    assert bad.signature not in ledger.transactions or case == "duplicate-sig"


def test_a_failed_transaction_changes_nothing_and_is_listed_only_as_non_voting() -> None:
    ledger = Ledger()
    first = ledger.apply(PendingTransaction(sig(1), 1, 1, open=(plain(1),)))
    root = ledger.state_trees[DEFAULT_STATE_TREE].root
    failed = ledger.apply(PendingTransaction(sig(2), 3, 1, error="InstructionError(0, Custom(1))",
                                             open=(plain(9),), close=first.opened))
    assert failed.opened == failed.closed == ()
    assert ledger.state_trees[DEFAULT_STATE_TREE].root == root
    assert ledger.live_by_hash(first.opened[0]) is not None
    assert [k[1] for k in ledger.latest_signatures(include_failed=True)] == [sig(1), sig(2)]
    assert [k[1] for k in ledger.latest_signatures(include_failed=False)] == [sig(1)]
    assert list(ledger.signatures_by_owner.keys(OWNER)) == [(1, sig(1))]
    assert ledger.indexed_slot == 3


def test_an_update_carries_the_address_without_inserting_it_again() -> None:
    ledger = Ledger()
    first = ledger.apply(PendingTransaction(sig(1), 1, 1, open=(plain(1, address=ADDRESS),)))
    seq = ledger.address_tree.seq
    second = ledger.apply(PendingTransaction(sig(2), 2, 1, close=first.opened, open=(plain(2, address=ADDRESS),)))
    assert ledger.address_tree.seq == seq
    assert ledger.live_by_address(ADDRESS).hash == second.opened[0]
    assert list(ledger.signatures_by_address.keys(ADDRESS)) == [(1, sig(1)), (2, sig(2))]


def test_token_accounts_are_indexed_by_owner_delegate_and_balance() -> None:
    ledger = Ledger()
    big = 2**64 - 1
    done = ledger.apply(PendingTransaction(sig(1), 1, 1, open=(token(big, DELEGATE), token(0), token(5))))
    account = ledger.account(done.opened[0])
    assert account.owner == TOKEN_PROGRAM_ID and account.discriminator == 2
    assert ledger.token_balances(HOLDER) == {MINT: big + 5}
    assert [k[32:] for k in ledger.tokens_by_delegate.keys(DELEGATE)] == [done.opened[0]]
    assert len(ledger.tokens_by_owner.keys(HOLDER)) == 3
    assert done.post_token_balances[0].amount == big
    closing = ledger.apply(PendingTransaction(sig(2), 2, 1, close=done.opened))
    assert [c.amount for c in closing.pre_token_balances] == [big, 0, 5]
    assert ledger.token_balances(HOLDER) == {}
    assert ledger.tokens_by_delegate.keys(DELEGATE) == ()


def test_slots_and_tip() -> None:
    ledger = Ledger()
    ledger.advance_to(50)
    ledger.set_tip(60)
    assert (ledger.indexed_slot, ledger.tip_slot) == (50, 60)
    with pytest.raises(ValueError):
        ledger.set_tip(49)
    with pytest.raises(ValueError):
        ledger.advance_to(49)


def test_bulk_loading_equals_applying_one_transaction_at_a_time() -> None:
    """The O(n) bulk path gives exactly the hashes, seqs and roots of one-by-one application."""
    document = generate_scenario(accounts=300, seed=11)
    bulk = scenario_from_document(document).ledger
    single = Ledger(state_trees=list(bulk.state_trees), address_tree=bulk.address_tree_key)
    for index, tx in enumerate(bulk.transactions.values()):
        assert tx.signature == derive_signature(document["seed"], index)
        opened = tuple(_as_new(bulk.account(h)) for h in tx.opened)
        single.apply(PendingTransaction(tx.signature, tx.slot, tx.block_time, tx.error, opened, tx.closed))
    assert {k: t.root for k, t in single.state_trees.items()} == {k: t.root for k, t in bulk.state_trees.items()}
    assert {k: t.seq for k, t in single.state_trees.items()} == {k: t.seq for k, t in bulk.state_trees.items()}
    assert (single.address_tree.root, single.address_tree.seq) == (bulk.address_tree.root, bulk.address_tree.seq)
    assert {h: (a.seq, a.leaf_index) for h, a in single.accounts.items()} == {
        h: (a.seq, a.leaf_index) for h, a in bulk.accounts.items()
    }
    for account in bulk.accounts.values():
        assert account.hash == recompute(account)


def _as_new(account) -> NewAccount:
    return NewAccount(account.owner, account.lamports, account.tree, account.address, account.discriminator,
                      account.data, account.data_hash, account.token)


@pytest.mark.parametrize("field,value", [("lamports", 2**64), ("lamports", -1), ("owner", b"short"),
                                         ("discriminator", 2**64)])
def test_new_accounts_reject_values_no_hash_accepts(field: str, value) -> None:
    args = {"owner": OWNER, "lamports": 1, "tree": DEFAULT_STATE_TREE, field: value}
    if field == "discriminator":
        args.update(data=b"", data_hash=bytes(32))
    with pytest.raises(ValueError, match=field):
        NewAccount(**args)


def test_known_hashes_are_used_only_for_their_exact_inputs() -> None:
    """A hash computed ahead (say by worker processes) is taken only for the inputs it was computed from."""
    new = plain(5)
    inputs = account_hash_inputs(owner=OWNER, leaf_index=0, tree=DEFAULT_STATE_TREE, lamports=5, address=None,
                                 discriminator=None, data_hash=None)
    other_leaf = account_hash_inputs(owner=OWNER, leaf_index=7, tree=DEFAULT_STATE_TREE, lamports=5, address=None,
                                     discriminator=None, data_hash=None)
    known = {inputs: poseidon(*inputs), other_leaf: bytes(32)}
    ledger = Ledger()
    with ledger.bulk(known_hashes=known):
        done = ledger.apply(PendingTransaction(sig(1), 10, 100, open=(new, new)))
    assert list(known) == [other_leaf]  # the used entry is taken out, the other never matched
    accounts = [ledger.account(h) for h in done.opened]
    assert [a.leaf_index for a in accounts] == [0, 1]
    assert all(a.hash == recompute(a) for a in accounts)
