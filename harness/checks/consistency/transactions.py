"""Consistency checks about transactions: one that touched no compressed account, and one that failed.

A failed transaction changed nothing (Solana reverts its effects): it has no compression info, and no list of
an address's, an owner's or a token owner's transactions holds it (§4.2 #10–#13). Each rule is judged on every
path that can show it, so a server that gets one path right and another wrong is caught.
"""

from __future__ import annotations

from typing import Any

from csi_conformance.harness.context import Answer, CheckContext, MemoKey, answer_value
from csi_conformance.harness.core.failures import CheckFailure, Skip
from csi_conformance.harness.core.paths import member, result_value
from csi_conformance.harness.core.registry import check
from csi_conformance.harness.discover import LIST_LIMIT
from csi_conformance.harness.judging.pages import item_key, items_of, walk_pages
from csi_conformance.harness.judging.state import compression_info, no_compression_info

__all__ = ["failed_signatures"]

FAILED_AT_MOST = 3
"""Failed transactions asked about in a run."""
KEYS_PER_LIST = 3
"""Discovered addresses, owners and token owners whose transaction lists are searched for a failed one."""
LISTS = (("getCompressionSignaturesForAddress", "address", "addresses", "4.2-M11"),
         ("getCompressionSignaturesForOwner", "owner", "owners", "4.2-M12"),
         ("getCompressionSignaturesForTokenOwner", "owner", "token_owners", "4.2-M13"))
"""The lists of the transactions that modified a key's accounts: method, param, kind of key, row of §4.2."""
NULL_INFO = "result null (bare, or value null in {context, value})"
LATEST: MemoKey[list[dict]] = MemoKey("latest_non_voting")


def _latest(ctx: CheckContext) -> list[dict]:
    """The latest non-voting signature items (asked once a run)."""
    def latest(ctx: CheckContext) -> list[dict]:
        value = ctx.call("getLatestNonVotingSignatures", {"limit": 50}).value
        items = value.get("items") if isinstance(value, dict) else None
        return [i for i in items or [] if isinstance(i, dict)]

    return ctx.once(LATEST, latest)


def failed_signatures(ctx: CheckContext) -> list[str]:
    """Signatures of failed transactions: those the target lists with an error text, and those given (--keys)."""
    listed = [i["signature"] for i in _latest(ctx) if isinstance(i.get("error"), str) and i["error"]
              and isinstance(i.get("signature"), str)]
    return list(dict.fromkeys([*listed, *ctx.keys["failed_signatures"]]))


def _info_path(answer: Answer) -> str:
    return result_value("compressionInfo") if isinstance(answer.value, dict) else member("result")


@check("consistency.non-compression-transaction", clauses=("4.2-N7", "7-N2"),
       description="A transaction that touched no compressed account has no compression info (null)")
def non_compression_transaction(ctx: CheckContext) -> None:
    compression = set(ctx.keys["signatures"])
    others = [i.get("signature") for i in _latest(ctx) if i.get("signature") not in compression]
    for signature in others[:5]:
        answer = ctx.call("getTransactionWithCompressionInfo", {"signature": signature})
        info = compression_info(answer)
        if not no_compression_info(answer) and _compression_signature(ctx, signature, info):
            continue  # a compression transaction discovery did not see: it arrived since
        if not no_compression_info(answer):
            ctx.fail("Compression info for another transaction", expected=NULL_INFO, received=answer_value(answer),
                     answer=answer, path=_info_path(answer))
        ctx.examined("transactions")
    if not ctx.examined_anything:
        raise Skip("no non-compression transaction among the latest signatures")


def _compression_signature(ctx: CheckContext, signature: str, info: dict | None) -> bool:
    """Whether a transaction answered with accounts is in fact a compression one (it may be newer than discovery)."""
    if not info or not (info.get("openedAccounts") or info.get("closedAccounts")):
        return False
    walk = walk_pages(ctx, ctx.method("getLatestCompressionSignatures"), {}, size=LIST_LIMIT, max_pages=5,
                      until=lambda item: item_key(item) == signature)
    return walk.found


@check("consistency.failed-transactions", clauses=("4.2-N7", "7-N2", "4.2-M11", "4.2-M12", "4.2-M13"),
       description="A failed transaction changed nothing: it has no compression info, and no list of an address's, "
                   "an owner's or a token owner's transactions holds it")
def failed_transactions(ctx: CheckContext) -> None:
    failed = failed_signatures(ctx)
    if not failed:
        raise Skip("no failed transaction among the latest non-voting signatures (give some with --keys)")
    for signature in failed[:FAILED_AT_MOST]:
        answer = ctx.call("getTransactionWithCompressionInfo", {"signature": signature})
        if not no_compression_info(answer):
            ctx.defer(CheckFailure("Compression info for a failed transaction", expected=NULL_INFO,
                                   received=answer_value(answer), answer=answer, method=answer.method,
                                   clauses=("4.2-N7", "7-N2"), path=_info_path(answer)))
        ctx.examined("transactions")
    for method, param, kind, row in LISTS:
        for key in ctx.keys[kind][:KEYS_PER_LIST]:
            _not_listed(ctx, method, {param: key, "limit": LIST_LIMIT}, set(failed), row)


def _not_listed(ctx: CheckContext, method: str, params: dict[str, Any], failed: set[str], row: str) -> None:
    """One page of a key's transactions holds no failed one."""
    answer = ctx.call(method, params)
    items = items_of(ctx.method(method), answer.value)
    if items is None:
        return  # no list: the schema and refusal checks say why
    for index, item in enumerate(items):
        if item_key(item) in failed:
            ctx.defer(CheckFailure("Failed transaction listed as modifying accounts", expected="only transactions "
                                   "that succeeded (a failed one changed nothing)", received=item_key(item),
                                   answer=answer, method=method, clauses=(row,),
                                   path=result_value("items", index, "signature")))
    ctx.examined("lists", method=method)
