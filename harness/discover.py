"""Learn what a target holds through the API itself, so checks have real keys to ask about.

latest compression signatures -> transactions with compression info -> opened and closed
accounts -> their owners, addresses, hashes, trees, token owners, mints and delegates -> the
owners' live accounts. A vendor adds keys of their own with `--keys FILE` (YAML).

The transactions, and then the owners' lists, are asked together (`CheckContext.call_many`) and read
in the order asked, so the keys found are the same whatever the run's concurrency.
"""

from __future__ import annotations

from typing import Any

from csi_conformance.harness.context import CheckContext
from csi_conformance.harness.core.keys import Keys

__all__ = ["LIST_LIMIT", "Keys", "discover"]

MAX_SIGNATURE_PAGES = 5
MAX_TRANSACTIONS = 60
MAX_OWNERS = 12
LIST_LIMIT = 100


def discover(ctx: CheckContext) -> None:
    """Fill `ctx.keys` from the target; every request made here is judged like any other."""
    _signatures(ctx)
    signatures = ctx.keys["signatures"][:MAX_TRANSACTIONS]
    asked = ctx.call_many([("getTransactionWithCompressionInfo", {"signature": signature})
                           for signature in signatures])
    for signature, answer in zip(signatures, asked, strict=False):
        _transaction(ctx, signature, answer.result)
    owners, token_owners = ctx.keys["owners"][:MAX_OWNERS], ctx.keys["token_owners"][:MAX_OWNERS]
    asked = ctx.call_many([*(("getCompressedAccountsByOwner", {"owner": owner, "limit": LIST_LIMIT})
                             for owner in owners),
                           *(("getCompressedTokenAccountsByOwner", {"owner": owner, "limit": LIST_LIMIT})
                             for owner in token_owners)])
    for index, answer in enumerate(asked):
        if index < len(owners):
            _owner_accounts(ctx, owners[index], answer.value)
        else:
            _owner_token_accounts(ctx, token_owners[index - len(owners)], answer.value)
    if "getQueueInfo" in ctx.contract.methods:
        _queue_trees(ctx)


STATE_QUEUE_TYPES = (3, 5)
"""Light's QueueType of a batched state tree's input and output queue (program-libs/compressed-account/src/lib.rs);
4 is a batched address tree's."""
ADDRESS_QUEUE_TYPE = 4


def _queue_trees(ctx: CheckContext) -> None:
    """The batched trees the target's getQueueInfo names, and the address trees its address proofs are in: what
    the queue methods and getMultipleNewAddressProofsV2 ask about (a contract that has them only)."""
    queues = ctx.call("getQueueInfo", {}).result
    for queue in queues.get("queues") or [] if isinstance(queues, dict) else []:
        if isinstance(queue, dict):
            if queue.get("queueType") in STATE_QUEUE_TYPES:
                ctx.keys.add("batched_trees", queue.get("tree"))
            elif queue.get("queueType") == ADDRESS_QUEUE_TYPE:
                ctx.keys.add("address_trees", queue.get("tree"))
    proofs = ctx.call("getMultipleNewAddressProofs", [ctx.fresh_pubkey()]).value
    for proof in proofs if isinstance(proofs, list) else []:
        if isinstance(proof, dict):
            ctx.keys.add("address_trees", proof.get("merkleTree"))


def _signatures(ctx: CheckContext) -> None:
    cursor = None
    for _ in range(MAX_SIGNATURE_PAGES):
        params = {"limit": 50} if cursor is None else {"limit": 50, "cursor": cursor}
        value = ctx.call("getLatestCompressionSignatures", params).value
        if not isinstance(value, dict) or not isinstance(value.get("items"), list):
            return
        items = [i for i in value["items"] if isinstance(i, dict) and isinstance(i.get("signature"), str)]
        ctx.keys.add("signatures", *(i["signature"] for i in items))
        for item in items:
            ctx.keys.signature_items.setdefault(item["signature"], item)
        cursor = value.get("cursor")
        if not cursor or not value["items"]:
            return


def _info_of(result: Any) -> dict | None:
    """The compression info of a transaction answer, whichever reading the target follows."""
    if isinstance(result, dict) and isinstance(result.get("value"), dict) and "context" in result:
        result = result["value"]
    if not isinstance(result, dict):
        return None
    info = result.get("compressionInfo", result.get("compression_info"))
    return info if isinstance(info, dict) else None


def token_data_of(item: dict) -> dict | None:
    data = item.get("optionalTokenData", item.get("maybeTokenData"))
    return data if isinstance(data, dict) else None


def _transaction(ctx: CheckContext, signature: str, result: Any) -> None:
    info = _info_of(result)
    if info is None:
        return
    record = {"opened": [], "closed": []}
    for side in ("openedAccounts", "closedAccounts"):
        for item in info.get(side) or []:
            account = item.get("account") if isinstance(item, dict) else None
            if not isinstance(account, dict):
                continue
            _note_account(ctx, account, token_data_of(item), closed=side == "closedAccounts")
            if isinstance(account.get("hash"), str):
                ctx.keys.touched[account["hash"]] = {"account": account, "tokenData": token_data_of(item)}
            record["opened" if side == "openedAccounts" else "closed"].append(account.get("hash"))
    ctx.keys.transactions[signature] = record


def _note_account(ctx: CheckContext, account: dict, token: dict | None, *, closed: bool) -> None:
    keys = ctx.keys
    keys.add("closed_hashes" if closed else "hashes", account.get("hash"))
    if closed:
        keys.add("closed_addresses", account.get("address"))
    else:
        keys.add("addresses", account.get("address"))
    keys.add("owners", account.get("owner"))
    keys.add("trees", account.get("tree"))
    if token:
        keys.add("token_owners", token.get("owner"))
        keys.add("mints", token.get("mint"))
        keys.add("delegates", token.get("delegate"))


def _whole(value: Any) -> bool:
    """Whether one page is the whole list: no cursor onwards and fewer items than the limit asked."""
    items = value.get("items") if isinstance(value, dict) else None
    return isinstance(items, list) and value.get("cursor") is None and len(items) < LIST_LIMIT


def _owner_accounts(ctx: CheckContext, owner: str, value: Any) -> None:
    if _whole(value):
        ctx.keys.complete_owners.add(owner)
    for account in (value or {}).get("items") or [] if isinstance(value, dict) else []:
        if isinstance(account, dict) and isinstance(account.get("hash"), str):
            ctx.keys.accounts[account["hash"]] = account
            ctx.keys.add("hashes", account["hash"])
            ctx.keys.add("addresses", account.get("address"))


def _owner_token_accounts(ctx: CheckContext, owner: str, value: Any) -> None:
    if _whole(value):
        ctx.keys.complete_token_owners.add(owner)
    for item in (value or {}).get("items") or [] if isinstance(value, dict) else []:
        account = item.get("account") if isinstance(item, dict) else None
        if isinstance(account, dict) and isinstance(account.get("hash"), str):
            ctx.keys.token_accounts[account["hash"]] = item
            _note_account(ctx, account, item.get("tokenData") if isinstance(item.get("tokenData"), dict) else None,
                          closed=False)
