"""Family `differential`, mirror mode: the target against a reference that holds what it showed.

`harness.checks.differential.mirror` replays what discovery saw into a fresh reference ledger (the mirror); these
checks send the same requests to the target and to the mirror and compare what the reference
derives: account fields and hashes, balances by owner, token balances by mint, the mint and
delegate lists, `filters` and `dataSlice`, page walks and signature lists. Mirror hashes are
mapped back to the target's before comparing, lists are compared as sets where the spec leaves
their order free, and only what the mirror fully knows is compared (each check says what).

A live target moves while it is checked: an owner whose list changed since discovery is asked
again and skipped rather than reported (`harness.checks.differential.mirror.compare.compare_owner`). Each check
counts what it compared (accounts, lookups, balances, lists and their items): an owner with no
accounts whose empty list matches the mirror's is one list compared, and a check that compared
nothing ends SKIP.
"""

from __future__ import annotations

import base64
from collections.abc import Iterable
from typing import Any

from csi_conformance.groundwork.base58 import b58encode
from csi_conformance.groundwork.jsonio import dumps
from csi_conformance.harness.checks.differential.mirror import MirrorBuild
from csi_conformance.harness.checks.differential.mirror.compare import (
    KEYS_COMPARED,
    Findings,
    Mirror,
    both,
    compare_owner,
    compared,
    mirror_of,
    moved,
    pair,
    started_mirror,
)
from csi_conformance.harness.checks.differential.mirror.views import (
    account_view,
    differences,
    item_view,
    signature_view,
    token_view,
)
from csi_conformance.harness.context import CheckContext
from csi_conformance.harness.core.failures import Skip
from csi_conformance.harness.core.model import Basis
from csi_conformance.harness.core.paths import BODY
from csi_conformance.harness.core.registry import check
from csi_conformance.harness.core.values import clip
from csi_conformance.harness.discover import LIST_LIMIT
from csi_conformance.harness.judging.answers import state_value
from csi_conformance.harness.judging.samples import fetch_all
from csi_conformance.harness.verify.values import matching_layout, recomputed_hash, tree_layouts

ACCOUNTS_LOOKED_UP = 4
PAGE = 5
"""Page size of the walks compared with the mirror: small, so that walks cross pages."""
_SLICE = {"offset": 1, "length": 3}


# -- the ledger and its accounts -----------------------------------------------------------------
@check("differential.mirror-ledger", clauses=("3.2-R1", "3.2-R2"),
       description="What discovery saw replays as one ledger: no account opened or closed twice, none listed "
                   "live after a transaction closed it")
def mirror_ledger(ctx: CheckContext) -> None:
    """Builds the mirror (the other mirror checks reuse it). Fails on what no ledger can hold;
    what the mirror merely could not hold (a malformed account, a gap) is left out, not reported."""
    mirror = started_mirror(ctx)
    build = mirror.build
    ctx.examined("transactions", len(ctx.keys.transactions))
    ctx.examined("accounts", len(build.to_target))
    if build.contradictions:
        ctx.fail("Discovered state contradicts itself", expected="each account opened once, closed at most once, "
                 "and not listed live once closed", received=clip(build.contradictions, items=3),
                 path=BODY)
    if mirror.session.refused:
        ctx.fail("Discovered state does not replay", expected="a ledger holding what the target showed",
                 received=mirror.session.error or "", path=BODY)
    mirror_of(ctx)  # skips when no mirror runs or it holds nothing


def _mirror_views(mirror: Mirror) -> dict[str, dict]:
    """Every mirror account with its token data, as the mirror's transactions show it, by target hash."""
    views: dict[str, dict] = {}
    for entry in mirror.build.document["transactions"]:
        info = mirror.session.result("getTransactionWithCompressionInfo", {"signature": entry["signature"]})
        for side in ("openedAccounts", "closedAccounts"):
            for item in info["compressionInfo"][side]:
                views[mirror.build.to_target[item["account"]["hash"]]] = item
    return views


def _target_views(ctx: CheckContext) -> Iterable[tuple[str, Any, Any, str]]:
    """(hash, account, token data or `...` where the answer has none by nature, where) of every
    view of an account discovery kept."""
    for hash_, seen in ctx.keys.touched.items():
        yield hash_, seen.get("account"), seen.get("tokenData"), "in its transaction"
    for hash_, account in ctx.keys.accounts.items():
        yield hash_, account, ..., "in an owner list"
    for hash_, item in ctx.keys.token_accounts.items():
        yield hash_, item.get("account"), item.get("tokenData"), "in a token list"


@check("differential.mirror-accounts", clauses=("2.3-R1", "2.3-R2", "2.11-R2", "4.2-M1", "4.2-M2", "4.2-M9"),
       description="Each discovered account, and its lookups by hash and address, equal the mirror's; its hash "
                   "recomputes with the target's leaf index and tree")
def mirror_accounts(ctx: CheckContext) -> None:
    """Compares every view discovery kept of every account (all fields but leafIndex and seq, and
    token data where the answer carries it) with the mirror's account: `slotCreated` must be the
    slot of the transaction that opened it, a token account's data its token data. Recomputes each
    target hash from the target's own fields (the mirror's hashes sit at other leaves), and looks
    a few live and one closed account up on both sides."""
    mirror = mirror_of(ctx)
    found = Findings(ctx)
    views = _mirror_views(mirror)
    for hash_, account, token, where in _target_views(ctx):
        if hash_ not in views or not isinstance(account, dict):
            continue
        expected = {"account": account_view(views[hash_]["account"], mirror.build.to_target)}
        received = {"account": account_view(account)}
        if token is not ...:
            expected["tokenData"] = token_view(views[hash_]["optionalTokenData"])
            received["tokenData"] = token_view(token)
        found.add(f"{hash_} {where}", pair(expected, received), kind="accounts")
        layouts = tree_layouts(account.get("tree"), ctx.facts.batched_trees)
        try:
            layout = matching_layout(account, layouts)
            recomputed = b58encode(recomputed_hash(account, batched=layouts[0]))
        except (KeyError, TypeError, ValueError, OverflowError):
            continue  # a malformed account is schema.result's finding
        found.add(f"{hash_} {where}", [f"hash recomputes to {recomputed}"] if layout is None else [],
                  kind="hashes")
    _lookups(ctx, mirror, found)
    found.report("Account differs from the mirror", "the accounts discovery saw")


def _lookup_order(ctx: CheckContext, build: MirrorBuild) -> list[str]:
    """Live accounts with an address first, then token accounts, then the rest; one closed one."""
    def shown(hash_: str) -> dict:
        return ctx.keys.accounts.get(hash_) or (ctx.keys.token_accounts.get(hash_) or {}).get("account") or {}

    live = sorted(build.live - build.closed,
                  key=lambda h: (not shown(h).get("address"), h not in ctx.keys.token_accounts, h))
    return [*live[:ACCOUNTS_LOOKED_UP], *sorted(build.closed - build.live)[:1]]


def _lookups(ctx: CheckContext, mirror: Mirror, found: Findings) -> None:
    build = mirror.build
    for hash_ in _lookup_order(ctx, build):
        mirror_hash = build.to_mirror[hash_]
        answer = ctx.call("getCompressedAccount", {"hash": hash_})
        mirrored = account_view(mirror.value("getCompressedAccount", {"hash": mirror_hash}), build.to_target)
        found.add(f"getCompressedAccount {hash_}", pair(mirrored, account_view(answer.value)), answer,
                  reference=mirrored, kind="lookups")
        if hash_ not in build.live:
            continue
        address = (mirrored or {}).get("address")
        if address:
            answer = ctx.call("getCompressedAccount", {"address": address})
            mirrored = account_view(mirror.value("getCompressedAccount", {"address": address}), build.to_target)
            found.add(f"getCompressedAccount {address}", pair(mirrored, account_view(answer.value)), answer,
                      reference=mirrored, kind="lookups")
        answer = ctx.call("getCompressedAccountBalance", {"hash": hash_})
        mirrored = mirror.value("getCompressedAccountBalance", {"hash": mirror_hash})
        found.add(f"getCompressedAccountBalance {hash_}", pair(mirrored, state_value(ctx, answer)), answer,
                  reference=mirrored, kind="lookups")
        if hash_ in ctx.keys.token_accounts:
            answer = ctx.call("getCompressedTokenAccountBalance", {"hash": hash_})
            mirrored = mirror.value("getCompressedTokenAccountBalance", {"hash": mirror_hash})
            found.add(f"getCompressedTokenAccountBalance {hash_}", pair(mirrored, answer.value), answer,
                      reference=mirrored, kind="lookups")


# -- owners -----------------------------------------------------------------------------------
@check("differential.mirror-balance-by-owner", clauses=("4.2-M4",),
       description="getCompressedBalanceByOwner equals the mirror's for owners whose accounts discovery saw whole")
def mirror_balance_by_owner(ctx: CheckContext) -> None:
    """Only owners whose whole account list discovery saw: the mirror holds all their live
    accounts, so its balance is the sum the target's must equal."""
    mirror = mirror_of(ctx)
    found = Findings(ctx)
    for owner in compared(mirror.build.owners, "owner"):
        with found.each():
            answer = ctx.call("getCompressedBalanceByOwner", {"owner": owner})
            mirrored = mirror.value("getCompressedBalanceByOwner", {"owner": owner})
            compare_owner(found, f"owner {owner}", owner, pair(mirrored, state_value(ctx, answer)), answer,
                          token=False, reference=mirrored, kind="balances")
    found.report("Owner balance differs from the mirror", "the balance of owners seen whole")


def _balances(items: list) -> dict[str, Any]:
    return {str(b.get("mint")): b.get("balance") for b in items if isinstance(b, dict)}


@check("differential.mirror-token-balances", clauses=("4.2-M8", "4.2-N4"),
       description="getCompressedTokenBalancesByOwner (all mints, and one mint) equals the mirror's for token "
                   "owners whose token accounts discovery saw whole")
def mirror_token_balances(ctx: CheckContext) -> None:
    """Balances per mint are compared as a mapping (the spec gives no order of balances)."""
    mirror = mirror_of(ctx)
    found = Findings(ctx)
    method = "getCompressedTokenBalancesByOwner"
    for owner in compared(mirror.build.token_owners, "token owner"):
        with found.each():
            mirrored = _balances(mirror.walk(ctx, method, {"owner": owner}))
            target = _balances(fetch_all(ctx, ctx.method(method), {"owner": owner}))
            lines = differences(mirrored, target)
            for mint in sorted(mirrored)[:1]:
                one = _balances(fetch_all(ctx, ctx.method(method), {"owner": owner, "mint": mint}))
                lines += [f"with mint {mint}: {line}" for line in differences({mint: mirrored[mint]}, one)]
            compare_owner(found, f"token owner {owner}", owner, lines, token=True, kind="balance lists",
                          method=method)
    found.report("Token balances differ from the mirror", "the token balances of token owners seen whole")


def _memcmp(ctx: CheckContext, mirror: Mirror, owner: str) -> dict | None:
    """A filter on the first two data bytes of one of the owner's mirrored accounts, if any has two."""
    for account in mirror.walk(ctx, "getCompressedAccountsByOwner", {"owner": owner}):
        raw = base64.b64decode((account.get("data") or {}).get("data") or "")
        if len(raw) >= 2:
            return {"memcmp": {"offset": 0, "bytes": b58encode(raw[:2])}}
    return None


@check("differential.mirror-account-lists", clauses=("4.2-M5", "4.2-N2", "4.1-R8", "2.11-R4"),
       description="getCompressedAccountsByOwner walked in pages, with dataSlice and with a memcmp filter, lists "
                   "the mirror's accounts for owners discovery saw whole")
def mirror_account_lists(ctx: CheckContext) -> None:
    """Lists are compared as sets of accounts (their order is observed practice, not the spec).
    The filter is the observed `{memcmp: {offset, bytes}}` form, so a difference there rests on
    observed practice; the page walk and `dataSlice` (4.2-N2) rest on the spec."""
    mirror = mirror_of(ctx)
    found = Findings(ctx)
    method = "getCompressedAccountsByOwner"
    for owner in compared(mirror.build.owners, "owner"):
        memcmp = _memcmp(ctx, mirror, owner)
        variants = [(f"in pages of {PAGE}", {}, PAGE, Basis.SPEC),
                    (f"with dataSlice {dumps(_SLICE)}", {"dataSlice": _SLICE}, LIST_LIMIT, Basis.SPEC)]
        if memcmp:
            variants.append((f"with filter {dumps(memcmp)}", {"filters": [memcmp]}, LIST_LIMIT, Basis.OBSERVED))
        for what, extra, page, basis in variants:
            with found.each():
                lines, count = both(ctx, mirror, method, {"owner": owner, **extra}, account_view, page)
                compare_owner(found, f"owner {owner} {what}", owner, lines, token=False, basis=basis,
                              kind="lists", method=method)
                ctx.examined("accounts", count)
    found.report("Account list differs from the mirror", "the accounts of owners seen whole")


@check("differential.mirror-token-lists", clauses=("4.2-M6", "4.2-N4", "4.1-R8"),
       description="getCompressedTokenAccountsByOwner walked in pages, and with one mint, lists the mirror's token "
                   "accounts for token owners discovery saw whole")
def mirror_token_lists(ctx: CheckContext) -> None:
    """Compared as sets of token accounts: account fields but leafIndex and seq, and token data."""
    mirror = mirror_of(ctx)
    found = Findings(ctx)
    method = "getCompressedTokenAccountsByOwner"
    for owner in compared(mirror.build.token_owners, "token owner"):
        mints = sorted({item["tokenData"]["mint"] for item in mirror.walk(ctx, method, {"owner": owner})})
        variants = [(f"in pages of {PAGE}", {}, PAGE)]
        variants += [(f"with mint {mint}", {"mint": mint}, LIST_LIMIT) for mint in mints[:1]]
        for what, extra, page in variants:
            with found.each():
                lines, count = both(ctx, mirror, method, {"owner": owner, **extra}, item_view, page)
                compare_owner(found, f"token owner {owner} {what}", owner, lines, token=True, kind="lists",
                              method=method)
                ctx.examined("token accounts", count)
    found.report("Token account list differs from the mirror", "the token accounts of token owners seen whole")


@check("differential.mirror-delegates", clauses=("4.2-M7", "4.2-N5"),
       description="getCompressedTokenAccountsByDelegate lists what the mirror lists, among the token accounts of "
                   "token owners discovery saw whole")
def mirror_delegates(ctx: CheckContext) -> None:
    """A delegate's accounts may belong to token owners discovery never met, so both lists are
    narrowed to the token owners the mirror holds whole before they are compared as sets."""
    mirror = mirror_of(ctx)
    whole = set(mirror.build.token_owners)
    delegates = [d for d in ctx.keys["delegates"] if d not in mirror.build.blocked][:KEYS_COMPARED]
    if not whole or not delegates:
        raise Skip("no delegate of a token owner whose whole list discovery saw")
    found = Findings(ctx)

    def held(view: Any) -> bool:
        return isinstance(view, dict) and (view.get("tokenData") or {}).get("owner") in whole

    for delegate in delegates:
        with found.each():
            method = "getCompressedTokenAccountsByDelegate"
            lines, count = both(ctx, mirror, method, {"delegate": delegate}, item_view, keep=held)
            if lines and any(moved(ctx, owner, token=True) for owner in sorted(whole)):
                found.moved.append(delegate)
                raise Skip(f"the target's state moved since discovery for the token owners of {delegate}")
            found.add(f"delegate {delegate}", lines, kind="lists", method=method)
            ctx.examined("token accounts", count)
    found.report("Delegate list differs from the mirror", "the delegated accounts of token owners seen whole")


# -- signatures -------------------------------------------------------------------------------
_SIGNATURE_LISTS = (("getCompressionSignaturesForOwner", "owner", "owners"),
                    ("getCompressionSignaturesForTokenOwner", "owner", "token_owners"),
                    ("getCompressionSignaturesForAddress", "address", "addresses"),
                    ("getCompressionSignaturesForAddress", "address", "closed_addresses"))
"""(method, param, kind of discovered key) of the signature lists compared."""


@check("differential.mirror-signatures", clauses=("4.2-M11", "4.2-M12", "4.2-M13", "2.8-R1", "3.2-R1", "3.2-R2"),
       description="Signature lists by owner, token owner and address hold the mirror's signatures, slots and "
                   "block times, among the transactions discovery replayed")
def mirror_signatures(ctx: CheckContext) -> None:
    """Both lists are narrowed to the target's transactions the mirror replayed whole (the mirror
    invents some, and the target holds more than discovery saw), then compared as sets of
    (signature, slot, blockTime). Which transactions touched a key does not depend on which
    accounts are live, so every key the mirror holds without a gap is compared."""
    mirror = mirror_of(ctx)
    build, found = mirror.build, Findings(ctx)
    if not build.replayed:
        raise Skip("no transaction discovered with its slot and blockTime")

    def held(view: Any) -> bool:
        return isinstance(view, dict) and view.get("signature") in build.replayed

    for method, param, kind in _SIGNATURE_LISTS:  # the mirror stops once the run has judged every check
        for key in [k for k in ctx.keys[kind] if k not in build.blocked][:KEYS_COMPARED]:
            with found.each():
                lines, count = both(ctx, mirror, method, {param: key}, signature_view, keep=held)
                found.add(f"{method} {key}", lines, kind="lists", method=method)
                ctx.examined("signatures", count)
    found.report("Signature list differs from the mirror", "the transactions discovery replayed")
