"""Family `consistency`: answers of different methods about the same state agree with each other.

Each check covers every discovered key its rule applies to, within its own request bound
(`harness.judging.pages.Budget`), and counts what it compared. A live target moves: before a
check fails on state discovery saw (an account, a balance), it reads again
(`harness.checks.consistency.live`). Filtered and sliced lists are walked over several small pages,
so a filter the target drops after the first page shows.
"""

from __future__ import annotations

from csi_conformance.groundwork.base58 import b58encode
from csi_conformance.harness.checks.consistency.live import (
    WHOLE_PAGES,
    SignatureLists,
    defer,
    each,
    keys_of,
    listed,
    listed_now,
    read_twice,
    small_walk,
    still_live,
    whole_list,
)
from csi_conformance.harness.context import Answer, CheckContext, answer_value
from csi_conformance.harness.core.failures import CheckFailure, Mismatch, Skip
from csi_conformance.harness.core.model import Basis
from csi_conformance.harness.core.paths import member, result_value
from csi_conformance.harness.core.registry import answer_check, check
from csi_conformance.harness.core.values import clip
from csi_conformance.harness.discover import LIST_LIMIT
from csi_conformance.harness.judging.answers import state_value
from csi_conformance.harness.judging.compare import differences, json_path, sides
from csi_conformance.harness.judging.pages import Budget, item_key, items_of, partly, shown, walk_pages
from csi_conformance.harness.judging.state import (
    SLICE,
    balances_by_mint,
    datas_of,
    lamports_of,
    mint_of,
    owners_closed_first,
    probe_bytes,
    signature_lookups,
    token_sums,
    window,
)

REQUESTS = 400
"""Requests one check may spend over all its keys."""
TOKEN_LISTS = {"getCompressedTokenAccountsByOwner": ("owner", "token_owners"),
               "getCompressedTokenAccountsByDelegate": ("delegate", "delegates")}


@check("consistency.balance-by-owner", clauses=("4.2-M4",),
       description="getCompressedBalanceByOwner equals the sum of lamports of the owner's accounts")
def balance_by_owner(ctx: CheckContext) -> None:
    budget = Budget(ctx, REQUESTS)
    for owner in each(ctx, keys_of(ctx, "owners"), budget, "owners"):
        def reading(owner: str = owner) -> tuple[list | None, Answer]:
            return (whole_list(ctx, "getCompressedAccountsByOwner", {"owner": owner}, budget),
                    ctx.call("getCompressedBalanceByOwner", {"owner": owner}))

        (accounts, answer), persists = read_twice(
            reading, reading, lambda r: r[0] is None or state_value(ctx, r[1]) == lamports_of(r[0]))
        if accounts is None:
            continue
        if persists:
            defer(ctx, "Owner balance differs from its accounts", answer=answer, expected=lamports_of(accounts),
                  received=state_value(ctx, answer) if answer.has_result else answer_value(answer),
                  path=result_value(), kind=Mismatch if answer.has_result else CheckFailure)
        ctx.examined("owners")


@check("consistency.account-balance", clauses=("4.2-M2", "4.2-M3"),
       description="getCompressedAccountBalance and its alias getCompressedBalance equal the account's lamports")
def account_balance(ctx: CheckContext) -> None:
    accounts = list(ctx.keys.accounts.values())
    if not accounts:
        raise Skip("no live account discovered")
    budget = Budget(ctx, REQUESTS)
    for account in each(ctx, accounts, budget, "accounts", cost=5):
        for method in ("getCompressedAccountBalance", "getCompressedBalance"):
            answer = ctx.call(method, {"hash": account["hash"]})
            if state_value(ctx, answer) != account.get("lamports") and still_live(ctx, account["hash"]):
                answer = ctx.call(method, {"hash": account["hash"]})
                if state_value(ctx, answer) != account.get("lamports"):
                    defer(ctx, "Balance differs from the account", answer=answer,
                          expected=account.get("lamports"),
                          received=state_value(ctx, answer) if answer.has_result else answer_value(answer),
                          path=result_value(), kind=Mismatch if answer.has_result else CheckFailure)
            ctx.examined("accounts", method=method)


@check("consistency.hash-address", clauses=("4.2-M1",),
       description="getCompressedAccount by hash and by address give the same account")
def hash_address(ctx: CheckContext) -> None:
    accounts = [a for a in ctx.keys.accounts.values() if a.get("address")]
    if not accounts:
        raise Skip("no live account with an address discovered")
    budget = Budget(ctx, REQUESTS)
    for account in each(ctx, accounts, budget, "accounts with an address", cost=4):
        def reading(account: dict = account) -> tuple[Answer, Answer]:
            return (ctx.call("getCompressedAccount", {"hash": account["hash"]}),
                    ctx.call("getCompressedAccount", {"address": account["address"]}))

        (by_hash, by_address), persists = read_twice(
            reading, reading, lambda r: r[0].value is not None and r[0].value == r[1].value)
        if persists and not listed_now(ctx, account["hash"]):
            partly(ctx, f"account {account['hash']} left its owner's list since discovery, so it was not compared")
            continue
        if persists:
            found = differences(by_address.value, by_hash.value)
            by_hash_side, by_address_side = sides(found)
            defer(ctx, "By hash and by address differ", expected=by_hash_side, received=by_address_side,
                  answer=by_address, path=result_value() + json_path(found)[1:], kind=Mismatch)
        ctx.examined("accounts")


@check("consistency.token-balances", clauses=("4.2-M8",),
       description="Token balances by owner equal the sum of the owner's token amounts per mint")
def tokenbalances_by_mint(ctx: CheckContext) -> None:
    budget = Budget(ctx, REQUESTS)
    for owner in each(ctx, keys_of(ctx, "token_owners"), budget, "token owners"):
        def reading(owner: str = owner) -> tuple[list | None, list | None]:
            return (whole_list(ctx, "getCompressedTokenAccountsByOwner", {"owner": owner}, budget),
                    whole_list(ctx, "getCompressedTokenBalancesByOwner", {"owner": owner}, budget))

        def agree(r: tuple) -> bool:
            return r[0] is None or r[1] is None or token_sums(r[0]) == balances_by_mint(r[1])

        (accounts, balances), persists = read_twice(reading, reading, agree)
        if accounts is None or balances is None:
            continue
        if persists:
            defer(ctx, "Token balances differ from token accounts", expected=token_sums(accounts),
                  received=balances_by_mint(balances), method="getCompressedTokenBalancesByOwner",
                  path=result_value("token_balances", "*", "balance"), kind=Mismatch)
        ctx.examined("token owners")


@check("consistency.mint-filter", clauses=("4.2-N4", "4.2-M6", "4.2-M7"),
       description="`mint` restricts both token account lists to exactly that mint's accounts, on every page; "
                   "a mint not held gives an empty list")
def mint_filter(ctx: CheckContext) -> None:
    budget = Budget(ctx, REQUESTS)
    for method, (param, kind) in TOKEN_LISTS.items():
        for key in each(ctx, list(ctx.keys[kind]), budget, kind, cost=6):
            _mints_of_one(ctx, method, {param: key}, budget)
    if not ctx.examined_anything:
        raise Skip("no token owner or delegate discovered")


def _mints_of_one(ctx: CheckContext, method: str, params: dict, budget: Budget) -> None:
    everything = whole_list(ctx, method, params, budget)
    if everything is None:
        return
    for mint in sorted({mint for item in everything if isinstance(mint := mint_of(item), str)}):
        expected = sorted(item_key(item) for item in everything if mint_of(item) == mint)
        walk = small_walk(ctx, method, {**params, "mint": mint}, len(expected), budget)
        strangers = [item_key(item) for item in walk.items if mint_of(item) != mint]
        missing = set(expected) - set(walk.keys) if walk.complete() else set()
        if (strangers or missing) and listed(whole_list(ctx, method, params, budget) or []) != listed(everything):
            partly(ctx, f"{method} for {shown(params)} moved during the check, so mint {mint} was not compared")
            continue
        if strangers or missing:
            defer(ctx, "Mint filter differs", answer=walk.last, expected=f"the {len(expected)} accounts of mint "
                  f"{mint}", received={"pages": walk.pages, "of another mint": clip(strangers),
                                       "of that mint, missing": clip(sorted(missing))},
                  path=result_value("items", "*", "tokenData", "mint"))
        ctx.examined("mints", method=method)
    answer = ctx.call(method, {**params, "mint": ctx.fresh_pubkey(), "limit": LIST_LIMIT})
    others = items_of(ctx.method(method), answer.value)
    if others:
        defer(ctx, "Mint filter differs", answer=answer, expected="no item for a mint not held",
              received=clip([item_key(item) for item in others]), path=result_value("items"))
    if others is not None:
        ctx.examined("mints", method=method)


@check("consistency.delegate", clauses=("4.2-N5",),
       description="Token accounts by delegate lists exactly the accounts delegated to it")
def delegate(ctx: CheckContext) -> None:
    budget = Budget(ctx, REQUESTS)
    for key in each(ctx, keys_of(ctx, "delegates"), budget, "delegates"):
        items = whole_list(ctx, "getCompressedTokenAccountsByDelegate", {"delegate": key}, budget)
        if items is None:
            continue
        strangers = [item_key(i) for i in items if not isinstance(i, dict) or
                     (i.get("tokenData") or {}).get("delegate") != key]
        known = {h for h, item in ctx.keys.token_accounts.items() if item["tokenData"].get("delegate") == key}
        missing = sorted(h for h in known - listed(items) if still_live(ctx, h))
        if strangers or missing:
            defer(ctx, "Delegate list wrong", expected=f"only and all accounts delegated to {key}",
                  received={"not delegated to it": clip(strangers), "delegated to it, missing": clip(missing)},
                  method="getCompressedTokenAccountsByDelegate",
                  path=result_value("items", "*", "tokenData", "delegate"))
        ctx.examined("delegates")


@check("consistency.data-slice", clauses=("4.2-N2", "2.4-R2"),
       description="`dataSlice` lists the same accounts, each with exactly the requested window of its data, "
                   "on every page")
def data_slice(ctx: CheckContext) -> None:
    budget = Budget(ctx, REQUESTS)
    for owner in each(ctx, keys_of(ctx, "owners"), budget, "owners", cost=4):
        full = whole_list(ctx, "getCompressedAccountsByOwner", {"owner": owner}, budget)
        datas = datas_of(full or [])
        if not datas:
            continue
        params = {"owner": owner, "dataSlice": SLICE}
        walk = small_walk(ctx, "getCompressedAccountsByOwner", params, len(full), budget)
        wrong = [h for h, d in datas_of(walk.items).items() if h in datas and d != window(datas[h])]
        wrong += sorted(listed(walk.items) & (set(datas) - set(datas_of(walk.items))))  # data lost to the slice
        differ = walk.complete() and listed(walk.items) != listed(full)
        if (wrong or differ) and listed(whole_list(ctx, "getCompressedAccountsByOwner", {"owner": owner}, budget)
                                        or []) != listed(full):
            partly(ctx, f"the accounts of {owner} moved during the check, so they were not compared")
            continue
        if differ:
            defer(ctx, "Sliced list differs", answer=walk.last, expected=f"the {len(full)} accounts listed without "
                  "dataSlice", received=f"{len(walk.items)} accounts over {walk.pages} pages",
                  path=result_value("items"))
        if wrong:
            defer(ctx, "Data slice wrong", answer=walk.last, expected=f"bytes {SLICE['offset']} to "
                  f"{SLICE['offset'] + SLICE['length']} of each account's data",
                  received={"accounts with another data.data": clip(wrong)},
                  path=result_value("items", "*", "data", "data"))
        ctx.examined("accounts", len(listed(walk.items) & set(datas)))
    if not ctx.examined_anything:
        raise Skip("no account with data discovered")


@check("consistency.token-account-balance", clauses=("4.2-M9",),
       description="getCompressedTokenAccountBalance equals the token account's amount")
def token_account_balance(ctx: CheckContext) -> None:
    items = list(ctx.keys.token_accounts.values())
    if not items:
        raise Skip("no token account discovered")
    budget = Budget(ctx, REQUESTS)
    for item in each(ctx, items, budget, "token accounts", cost=3):
        account_hash, amount = item["account"]["hash"], item["tokenData"]["amount"]
        answer = ctx.call("getCompressedTokenAccountBalance", {"hash": account_hash})
        if not _amount_is(answer, amount) and still_live(ctx, account_hash):
            answer = ctx.call("getCompressedTokenAccountBalance", {"hash": account_hash})
            if not _amount_is(answer, amount):
                held = isinstance(answer.value, dict) and "amount" in answer.value
                defer(ctx, "Token account balance differs", expected=amount,
                      received=answer.value["amount"] if held else answer_value(answer), answer=answer,
                      path=result_value("amount"), kind=Mismatch if held else CheckFailure)
        ctx.examined("token accounts")


def _amount_is(answer: Answer, amount: object) -> bool:
    value = answer.value
    return isinstance(value, dict) and value.get("amount") == amount


@check("consistency.signatures-include", clauses=("4.2-M11", "4.2-M12", "4.2-M13", "3.2-R1", "3.2-R2"),
       description="Signature lists by address, owner and token owner include the transactions that opened "
                   "or closed the account")
def signatures_include(ctx: CheckContext) -> None:
    budget = Budget(ctx, REQUESTS * 3)
    lists = SignatureLists(ctx, budget)
    pairs = [(signature, account_hash) for signature, record in ctx.keys.transactions.items()
             for account_hash in [*record["opened"], *record["closed"]]]
    unreached = 0
    for signature, account_hash in each(ctx, pairs, budget, "accounts of transactions", cost=1):
        for method, params in signature_lookups(ctx.keys, account_hash):
            held = lists.holds(method, params, signature)
            if held is None:
                unreached += 1
                continue
            if not held:
                defer(ctx, "Transaction missing from signature list", expected=f"{signature} in {method}",
                      received=f"absent from the whole list for {shown(params)}", method=method,
                      path=result_value("items", "*", "signature"))
            ctx.examined("lookups", method=method)
    if unreached:
        partly(ctx, f"{unreached} lookups not decided: the list did not end within the page bound")
    if not ctx.examined_anything:
        raise Skip("no transaction with compressed accounts discovered")


@check("consistency.closed-not-listed", clauses=("3.2-R2",),
       description="Closed accounts are not listed among their owner's accounts")
def closed_not_listed(ctx: CheckContext) -> None:
    closed = set(ctx.keys["closed_hashes"])
    if not closed:
        raise Skip("no closed account discovered")
    budget = Budget(ctx, REQUESTS)
    method = ctx.method("getCompressedAccountsByOwner")
    for owner in each(ctx, owners_closed_first(ctx.keys, closed), budget, "owners"):
        walk = walk_pages(ctx, method, {"owner": owner}, size=LIST_LIMIT, max_pages=budget.pages(WHOLE_PAGES))
        found = listed(walk.items) & closed
        if found:
            defer(ctx, "Closed account listed", expected="no closed account in the owner's list",
                  received=clip(sorted(found)), answer=walk.last,
                  path=result_value("items", "*", "hash"))
        if not walk.complete():
            partly(ctx, f"the accounts of {owner} were compared over their first {len(walk.items)} only")
        ctx.examined("owners")
        ctx.examined("accounts", len(walk.items))


@check("consistency.filters", clauses=("4.2-M5", "2.11-R4"), basis=Basis.OBSERVED,
       description="A memcmp filter lists exactly the owner's accounts whose data holds those bytes there, on "
                   "every page (filter shape as observed: the spec does not show it)")
def filters(ctx: CheckContext) -> None:
    budget = Budget(ctx, REQUESTS)
    for owner in each(ctx, keys_of(ctx, "owners"), budget, "owners", cost=4):
        full = whole_list(ctx, "getCompressedAccountsByOwner", {"owner": owner}, budget)
        datas = datas_of(full or [])
        probe = probe_bytes(datas)
        if probe is None:
            continue
        expected = {h for h, d in datas.items() if d[:2] == probe}
        memcmp = {"memcmp": {"offset": 0, "bytes": b58encode(probe)}}
        walk = small_walk(ctx, "getCompressedAccountsByOwner", {"owner": owner, "filters": [memcmp]},
                          len(expected), budget)
        _filter_read(ctx, memcmp, walk.broken or walk.last)
        got = listed(walk.items)
        wrong = got - expected or (walk.complete() and expected - got)
        if wrong and listed(whole_list(ctx, "getCompressedAccountsByOwner", {"owner": owner}, budget) or []) \
                != listed(full):
            partly(ctx, f"the accounts of {owner} moved during the check, so they were not compared")
            continue
        if wrong:
            defer(ctx, "Filter result wrong", answer=walk.last, received=f"{len(got)} accounts over "
                  f"{walk.pages} pages", expected=f"the {len(expected)} accounts whose data starts {probe.hex()}",
                  path=result_value("items"))
        ctx.examined("accounts", len(got | expected))
    if not ctx.examined_anything:
        raise Skip("no account with two bytes of data discovered")


def _filter_read(ctx: CheckContext, element: dict, answer: Answer | None) -> None:
    """A filter answered shows the readings of its shape that allow it (ambiguity filters-shape); one refused
    with a JSON-RPC error, the readings that do not."""
    amb = ctx.contract.ambiguity("filters-shape")
    allowing = ctx.contract.readings_followed(amb.id, element, amb.definition)
    if answer is not None and answer.has_result:
        ctx.observe(amb.id, allowing)
    elif answer is not None and answer.error is not None:
        ctx.observe(amb.id, tuple(name for name in amb.readings if name not in allowing))


@check("consistency.newest-first", clauses=("4.2-M14",), basis=Basis.OBSERVED,
       description="Signature lists are ordered newest first (slot descending)")
def newest_first(ctx: CheckContext) -> None:
    answer = ctx.call("getLatestCompressionSignatures", {"limit": 50})
    value = answer.value
    slots = [i.get("slot") if isinstance(i, dict) else None for i in (value.get("items") or [])] \
        if isinstance(value, dict) else []
    if not slots:
        raise Skip("no compression signature listed")
    if any(type(s) is not int for s in slots):
        raise Skip("signature items without an integer slot (schema.result reports them)")
    if slots != sorted(slots, reverse=True):
        ctx.fail("Signatures not newest first", expected="slots descending", received=clip(slots),
                 answer=answer, path=result_value("items", _first_rise(slots), "slot"))
    ctx.examined("signatures", len(slots))


@answer_check("consistency.context-slot", clauses=("1-R1", "2.2-R1"), basis=Basis.OBSERVED, carries="Context",
              description="`context.slot` never goes backwards during a run")
def context_slot_monotonic(ctx: CheckContext, answer: Answer) -> None:
    slot, highest = answer.context_slot, ctx.observed.previous_context_slot
    if slot is None or highest is None:
        return
    if slot < highest:
        ctx.fail("Context slot went backwards", expected=f"a slot ≥ {highest}", received=slot, answer=answer,
                 path=member("result", "context", "slot"))
    ctx.examined("answers")


def _first_rise(slots: list[int]) -> int:
    """The index of the first item whose slot is above the one before it (where newest-first breaks)."""
    return next(i for i in range(1, len(slots)) if slots[i] > slots[i - 1])
