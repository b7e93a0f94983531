"""Family `consistency`: answers of different methods about the same state agree with each other."""

from __future__ import annotations

import base64
from collections import defaultdict

from harness.checks.samples import fetch_all, item_key
from harness.core.failures import Skip
from harness.core.model import Basis
from harness.core.registry import answer_check, check
from harness.engine.context import Answer, CheckContext, describe
from ledger_crypto import b58encode

OWNERS_CHECKED = 3


def _keys(ctx: CheckContext, kind: str, count: int = OWNERS_CHECKED) -> list[str]:
    values = ctx.keys[kind][:count]
    if not values:
        raise Skip(f"no {kind} discovered")
    return values


def _accounts_of(ctx: CheckContext, owner: str) -> list[dict]:
    return fetch_all(ctx, ctx.method("getCompressedAccountsByOwner"), {"owner": owner})


def _token_accounts_of(ctx: CheckContext, owner: str, **extra: str) -> list[dict]:
    return fetch_all(ctx, ctx.method("getCompressedTokenAccountsByOwner"), {"owner": owner, **extra})


@check("consistency.balance-by-owner", clauses=("4.2-M4",),
       description="getCompressedBalanceByOwner equals the sum of lamports of the owner's accounts")
def balance_by_owner(ctx: CheckContext) -> None:
    for owner in _keys(ctx, "owners"):
        total = sum(a.get("lamports", 0) for a in _accounts_of(ctx, owner) if type(a.get("lamports")) is int)
        answer = ctx.call("getCompressedBalanceByOwner", {"owner": owner})
        if answer.value != total:
            ctx.fail("Owner balance differs from its accounts", expected=f"{total} (sum over the owner's accounts)",
                     received=describe(answer), answer=answer)


def _live_accounts(ctx: CheckContext, count: int = 4) -> list[dict]:
    accounts = list(ctx.keys.accounts.values())[:count]
    if not accounts:
        raise Skip("no live account discovered")
    return accounts


def _balance_of(answer: Answer) -> object:
    body = answer.body
    if answer.has_result and isinstance(answer.result, dict):
        return answer.result.get("value")
    if isinstance(body, dict) and "value" in body and "jsonrpc" not in body:
        return body["value"]  # the bare reading of balance-wrapper
    return None


@check("consistency.account-balance", clauses=("4.2-M2", "4.2-M3"),
       description="getCompressedAccountBalance and its alias getCompressedBalance equal the account's lamports")
def account_balance(ctx: CheckContext) -> None:
    for account in _live_accounts(ctx):
        for method in ("getCompressedAccountBalance", "getCompressedBalance"):
            answer = ctx.call(method, {"hash": account["hash"]})
            if _balance_of(answer) != account.get("lamports"):
                ctx.fail("Balance differs from the account", expected=f"{account.get('lamports')} lamports",
                         received=describe(answer), answer=answer)


@check("consistency.hash-address", clauses=("4.2-M1",),
       description="getCompressedAccount by hash and by address give the same account")
def hash_address(ctx: CheckContext) -> None:
    accounts = [a for a in ctx.keys.accounts.values() if a.get("address")][:OWNERS_CHECKED]
    if not accounts:
        raise Skip("no live account with an address discovered")
    for account in accounts:
        by_hash = ctx.call("getCompressedAccount", {"hash": account["hash"]})
        by_address = ctx.call("getCompressedAccount", {"address": account["address"]})
        if by_hash.value != by_address.value or by_hash.value is None:
            ctx.fail("By hash and by address differ", expected=describe(by_hash), received=describe(by_address),
                     answer=by_address)


@check("consistency.token-balances", clauses=("4.2-M8",),
       description="Token balances by owner equal the sum of the owner's token amounts per mint")
def token_balances(ctx: CheckContext) -> None:
    for owner in _keys(ctx, "token_owners"):
        sums: dict[str, int] = defaultdict(int)
        for item in _token_accounts_of(ctx, owner):
            sums[item["tokenData"]["mint"]] += item["tokenData"]["amount"]
        balances = fetch_all(ctx, ctx.method("getCompressedTokenBalancesByOwner"), {"owner": owner})
        got = {b.get("mint"): b.get("balance") for b in balances if isinstance(b, dict)}
        if got != dict(sums):
            ctx.fail("Token balances differ from token accounts", expected=repr(dict(sorted(sums.items()))),
                     received=repr(dict(sorted(got.items(), key=str))))


@check("consistency.mint-filter", clauses=("4.2-N4",),
       description="`mint` restricts token account lists to exactly that mint's accounts")
def mint_filter(ctx: CheckContext) -> None:
    for owner in _keys(ctx, "token_owners"):
        everything = _token_accounts_of(ctx, owner)
        for mint in sorted({item["tokenData"]["mint"] for item in everything})[:2]:
            filtered = _token_accounts_of(ctx, owner, mint=mint)
            expected = sorted(item_key(i) for i in everything if i["tokenData"]["mint"] == mint)
            if sorted(item_key(i) for i in filtered) != expected:
                ctx.fail("Mint filter differs", expected=f"{len(expected)} accounts of mint {mint}",
                         received=f"{len(filtered)} accounts")


@check("consistency.delegate", clauses=("4.2-N5",),
       description="Token accounts by delegate lists exactly the accounts delegated to it")
def delegate(ctx: CheckContext) -> None:
    for key in _keys(ctx, "delegates"):
        listed = fetch_all(ctx, ctx.method("getCompressedTokenAccountsByDelegate"), {"delegate": key})
        strangers = [item_key(i) for i in listed if i.get("tokenData", {}).get("delegate") != key]
        known = {h for h, item in ctx.keys.token_accounts.items() if item["tokenData"].get("delegate") == key}
        missing = known - {item_key(i) for i in listed}
        if strangers or missing:
            ctx.fail("Delegate list wrong", expected=f"only and all accounts delegated to {key}",
                     received=f"{len(strangers)} not delegated to it, {len(missing)} delegated ones missing")


@check("consistency.data-slice", clauses=("4.2-N2", "2.4-R2"),
       description="`dataSlice` returns exactly the requested window of each account's data")
def data_slice(ctx: CheckContext) -> None:
    for owner in _keys(ctx, "owners"):
        full = {a["hash"]: a for a in _accounts_of(ctx, owner) if isinstance(a.get("data"), dict)}
        if not full:
            continue
        sliced = fetch_all(ctx, ctx.method("getCompressedAccountsByOwner"),
                           {"owner": owner, "dataSlice": {"offset": 1, "length": 2}})
        for account in sliced:
            whole = full.get(account.get("hash"))
            if whole is None:
                continue
            window = base64.b64decode(whole["data"]["data"])[1:3]
            if base64.b64decode(account.get("data", {}).get("data", "")) != window:
                ctx.fail("Data slice wrong", expected=f"bytes 1..3 of the data: {window.hex()}",
                         received=repr(account.get("data")))
        return
    raise Skip("no account with data discovered")


@check("consistency.token-account-balance", clauses=("4.2-M9",),
       description="getCompressedTokenAccountBalance equals the token account's amount")
def token_account_balance(ctx: CheckContext) -> None:
    items = list(ctx.keys.token_accounts.values())[:4]
    if not items:
        raise Skip("no token account discovered")
    for item in items:
        answer = ctx.call("getCompressedTokenAccountBalance", {"hash": item["account"]["hash"]})
        value = answer.value
        if not isinstance(value, dict) or value.get("amount") != item["tokenData"]["amount"]:
            ctx.fail("Token account balance differs", expected=f"amount {item['tokenData']['amount']}",
                     received=describe(answer), answer=answer)


def _signatures(ctx: CheckContext, method: str, params: dict) -> list[str]:
    return [item_key(i) for i in fetch_all(ctx, ctx.method(method), params)]


def _lookups(ctx: CheckContext, account_hash: str) -> list[tuple[str, dict]]:
    """The signature lists that must hold a transaction opening or closing this account."""
    seen = ctx.keys.touched.get(account_hash)
    if seen is None:
        return []
    account, token = seen["account"], seen["tokenData"]
    lookups = [("getCompressionSignaturesForOwner", {"owner": account.get("owner")})]
    if account.get("address"):
        lookups.append(("getCompressionSignaturesForAddress", {"address": account["address"]}))
    if token is not None:
        lookups.append(("getCompressionSignaturesForTokenOwner", {"owner": token.get("owner")}))
    return lookups


@check("consistency.signatures-include", clauses=("4.2-M11", "4.2-M12", "4.2-M13", "3.2-R1", "3.2-R2"),
       description="Signature lists by address, owner and token owner include the transactions that opened "
                   "or closed the account")
def signatures_include(ctx: CheckContext) -> None:
    checked = 0
    for signature, record in list(ctx.keys.transactions.items())[:8]:
        for account_hash in [*record["opened"][:2], *record["closed"][:1]]:
            for method, params in _lookups(ctx, account_hash):
                checked += 1
                if signature not in _signatures(ctx, method, params):
                    ctx.fail("Transaction missing from signature list", expected=f"{signature} in {method}",
                             received=f"absent for {params}")
    if not checked:
        raise Skip("no transaction with compressed accounts discovered")


@check("consistency.closed-not-listed", clauses=("3.2-R2",),
       description="Closed accounts are not listed among their owner's accounts")
def closed_not_listed(ctx: CheckContext) -> None:
    closed = set(ctx.keys["closed_hashes"])
    if not closed:
        raise Skip("no closed account discovered")
    for owner in _keys(ctx, "owners"):
        listed = {a.get("hash") for a in _accounts_of(ctx, owner)} & closed
        if listed:
            ctx.fail("Closed account listed", expected="no closed account in the owner's list",
                     received=f"{sorted(listed)}")


@check("consistency.filters", clauses=("4.2-M5", "2.11-R4"), basis=Basis.OBSERVED,
       description="A memcmp filter lists exactly the owner's accounts whose data holds those bytes there")
def filters(ctx: CheckContext) -> None:
    for owner in _keys(ctx, "owners"):
        accounts = [a for a in _accounts_of(ctx, owner) if isinstance(a.get("data"), dict)]
        datas = {a["hash"]: base64.b64decode(a["data"]["data"]) for a in accounts}
        probe = next((d[:2] for d in datas.values() if len(d) >= 2), None)
        if probe is None:
            continue
        memcmp = {"memcmp": {"offset": 0, "bytes": b58encode(probe)}}
        listed = fetch_all(ctx, ctx.method("getCompressedAccountsByOwner"), {"owner": owner, "filters": [memcmp]})
        expected = sorted(h for h, d in datas.items() if d[:2] == probe)
        if sorted(item_key(a) for a in listed) != expected:
            ctx.fail("Filter result wrong", expected=f"the {len(expected)} accounts whose data starts {probe.hex()}",
                     received=f"{len(listed)} accounts")
        return
    raise Skip("no account with two bytes of data discovered")


@check("consistency.non-compression-transaction", clauses=("4.2-N7", "7-N2"),
       description="A transaction that touched no compressed account has no compression info (null)")
def non_compression_transaction(ctx: CheckContext) -> None:
    latest = ctx.call("getLatestNonVotingSignatures", {"limit": 50}).value
    items = latest.get("items") if isinstance(latest, dict) else None
    compression = set(ctx.keys["signatures"])
    others = [i.get("signature") for i in items or [] if isinstance(i, dict) and i.get("signature") not in compression]
    if not others or len(compression) >= 250:
        raise Skip("no non-compression transaction among the latest signatures")
    answer = ctx.call("getTransactionWithCompressionInfo", {"signature": others[0]})
    if not answer.has_result or answer.result is not None:
        ctx.fail("Compression info for another transaction", expected="result null", received=describe(answer),
                 answer=answer)


@check("consistency.newest-first", clauses=("4.2-M14",), basis=Basis.OBSERVED,
       description="Signature lists are ordered newest first (slot descending)")
def newest_first(ctx: CheckContext) -> None:
    answer = ctx.call("getLatestCompressionSignatures", {"limit": 50})
    value = answer.value
    slots = [i.get("slot") for i in (value.get("items") or [])] if isinstance(value, dict) else []
    if any(type(s) is not int for s in slots):
        return
    if slots != sorted(slots, reverse=True):
        ctx.fail("Signatures not newest first", expected="slots descending", received=repr(slots[:20]),
                 answer=answer)


@answer_check("consistency.context-slot", clauses=("1-R1", "2.2-R1"), basis=Basis.OBSERVED,
              description="`context.slot` never goes backwards during a run")
def context_slot_monotonic(ctx: CheckContext, answer: Answer) -> None:
    slot, highest = answer.context_slot, ctx.previous_context_slot
    if slot is not None and highest is not None and slot < highest:
        ctx.fail("Context slot went backwards", expected=f"slot ≥ {highest}", received=f"slot {slot}", answer=answer)
