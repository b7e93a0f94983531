"""Faults real indexers have had, each caught by the check that earns the coverage of its clauses.

Pagination: a param the first page honours and the pages a cursor fetches drop (`mint`, `filters`,
`dataSlice`), so the list walked is not the list answered unpaged. Trees: a ledger whose state tree
never applied one nullification, one whose state tree zeroed a live leaf for a spent one, and one
whose address tree never inserted one address. Those ledgers are the default scenario's own
transactions replayed into a ledger that misses or misplaces that one tree operation, so every root
they serve is self-consistent (proofs fold to it, accounts' seqs agree with it): only the tree's
history is wrong. The operation altered is drawn from what the ledger holds (its earliest
nullification, its first live leaf, its earliest address), not planted.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from csi_conformance.reference_server.ledger import Ledger
from csi_conformance.reference_server.methods import call
from csi_conformance.reference_server.options import ServerOptions
from csi_conformance.reference_server.records import Account, NewAccount, PendingTransaction
from csi_conformance.schema import Contract

from .broken import Dispatch, Variant, _ledger

__all__ = ["VARIANTS", "altered_ledger", "served_by"]


# -- pagination: a param dropped on the pages a cursor fetches -------------------------------------------
def _dropped_on_continuation(param: str, method: str | None = None) -> Callable[[Dispatch, str, Any], Any]:
    """`param` honoured on the first page, dropped on every page asked with a cursor."""

    def dispatch(real: Dispatch, name: str, params: Any) -> Any:
        if (method in (None, name) and isinstance(params, dict) and params.get("cursor") is not None
                and param in params):
            params = {k: v for k, v in params.items() if k != param}
        return real(name, params)

    return dispatch


# -- trees: a ledger that skipped one tree operation ------------------------------------------------------
class _AlteredLedger(Ledger):
    """A ledger whose trees miss or misplace one operation: it closes `unnullified` without zeroing its leaf,
    zeroes leaf `misplaced[1]` (a live account's) when it closes `misplaced[0]`, and opens `uninserted`
    without inserting its address. Seq counts what the tree did, so every answer agrees with it."""

    def __init__(self, source: Ledger, *, unnullified: bytes | None = None, misplaced: tuple[bytes, int] | None = None,
                 uninserted: int | None = None, twice: bytes | None = None) -> None:
        super().__init__(state_trees=tuple(source.state_trees), address_tree=source.address_tree_key)
        self.unnullified, self.misplaced, self.uninserted, self.twice = unnullified, misplaced, uninserted, twice

    def _close(self, account: Account, tx: PendingTransaction, deferred: Any) -> None:
        if account.hash == self.unnullified:
            account.closed_by = tx.signature
            self._index_live(account, -1)
            return
        super()._close(account, tx, deferred)
        if self.misplaced is not None and account.hash == self.misplaced[0]:
            deferred.nullify[account.tree][-1] = self.misplaced[1]
        if account.hash == self.twice:  # the nullifier event applied twice: one more operation, the same leaves
            deferred.nullify[account.tree].append(account.leaf_index)
            deferred.seq[account.tree] += 1

    def _write_trees(self, deferred: Any) -> None:
        deferred.addresses = [value for value in deferred.addresses if value != self.uninserted]
        super()._write_trees(deferred)


def _replayed(source: Ledger, into: Ledger) -> Ledger:
    """`source`'s transactions applied again, in order, to `into` (a failed one stays failed)."""
    with into.bulk():
        for tx in source.transactions.values():
            opened = tuple(_new(source.accounts[h]) for h in tx.opened)
            into.apply(PendingTransaction(tx.signature, tx.slot, tx.block_time, tx.error, opened, tx.closed))
    into.advance_to(source.indexed_slot)
    into.set_tip(source.tip_slot)
    return into


def _new(account: Account) -> NewAccount:
    return NewAccount(account.owner, account.lamports, account.tree, account.address, account.discriminator,
                      account.data, account.data_hash, account.token)


def _closed_in_order(ledger: Ledger) -> list[Account]:
    return [ledger.accounts[h] for tx in ledger.transactions.values() for h in tx.closed]


def _addresses_in_order(ledger: Ledger) -> list[int]:
    """The addresses the ledger's transactions created, in the order they were inserted (an address carried
    by an update is inserted once, by the account that created it)."""
    opened = (ledger.accounts[h] for tx in ledger.transactions.values() for h in tx.opened)
    values = [int.from_bytes(account.address, "big") for account in opened if account.address is not None]
    return list(dict.fromkeys(values))


@cache
def altered_ledger(operation: str) -> Ledger:
    """The default ledger replayed without its first nullification ("nullify"), with its first nullification
    zeroing the first live leaf of that tree instead ("misplace"), applied twice ("twice"), or without its first
    address insertion ("insert")."""
    source = _ledger()
    first = _closed_in_order(source)[0]
    if operation == "nullify":
        into = _AlteredLedger(source, unnullified=first.hash)
    elif operation == "twice":
        into = _AlteredLedger(source, twice=first.hash)
    elif operation == "misplace":
        live = min(a.leaf_index for a in source.accounts.values() if a.tree == first.tree and not a.closed)
        into = _AlteredLedger(source, misplaced=(first.hash, live))
    else:
        into = _AlteredLedger(source, uninserted=_addresses_in_order(source)[0])
    return _replayed(source, into)


def served_by(operation: str) -> Callable[[Dispatch, str, Any], Any]:
    def dispatch(real: Dispatch, name: str, params: Any) -> Any:
        return call(altered_ledger(operation), name, params, ServerOptions(), Contract.default())

    return dispatch


VARIANTS = [
    Variant("delegate-mint-dropped-by-cursor", "pagination", "pagination.walk-with-params",
            dispatch=_dropped_on_continuation("mint", "getCompressedTokenAccountsByDelegate"), clauses=("4.1-R8",)),
    Variant("balances-mint-dropped-by-cursor", "pagination", "pagination.walk-with-params",
            dispatch=_dropped_on_continuation("mint", "getCompressedTokenBalancesByOwner"), clauses=("4.1-R8",)),
    Variant("owner-filters-dropped-by-cursor", "pagination", "pagination.walk-with-params",
            dispatch=_dropped_on_continuation("filters", "getCompressedAccountsByOwner"), clauses=("4.1-R8",)),
    Variant("owner-slice-dropped-by-cursor", "pagination", "pagination.walk-with-params",
            dispatch=_dropped_on_continuation("dataSlice", "getCompressedAccountsByOwner"), clauses=("4.1-R8",)),
    Variant("state-tree-lost-nullification", "crypto", "crypto.tree-roots", dispatch=served_by("nullify"),
            scenario=True, clauses=("ledger-T4", "ledger-T1")),
    Variant("state-tree-nullified-live-leaf", "crypto", "crypto.tree-roots", dispatch=served_by("misplace"),
            clauses=("ledger-T4", "ledger-T1")),
    Variant("address-tree-lost-insertion", "crypto", "crypto.tree-roots", dispatch=served_by("insert"),
            scenario=True, clauses=("ledger-T4", "ledger-T2")),
]
