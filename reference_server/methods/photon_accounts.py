"""Accounts, tokens, signatures and transactions Photon serves beside the spec's 19 (photon 366a15b).

The V2 lists page exactly as their V1 methods do under this contract (same order, limit and cursor:
Photon's V2 functions share the V1 queries, `src/api/method/get_compressed_accounts_by_owner/v2.rs`,
`utils.rs::fetch_token_accounts_v2`), so each is its V1 method with every account written as an `AccountV2`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from csi_conformance.groundwork.base58 import b58decode, b58encode
from csi_conformance.reference_server.batched import BatchedStateTree
from csi_conformance.reference_server.errors import SERVER_ERROR, RpcError
from csi_conformance.reference_server.ledger import Ledger
from csi_conformance.reference_server.methods.photon_practice import accounts_by_leaf_index
from csi_conformance.reference_server.methods.photon_shapes import DEFAULT_KEY, account_of, account_v2_json
from csi_conformance.reference_server.methods.registry import rpc_method
from csi_conformance.reference_server.methods.shapes import account_json, key_param, key_text, lookup_live, token_json
from csi_conformance.reference_server.methods.tokens import (
    get_compressed_token_accounts_by_delegate,
    get_compressed_token_accounts_by_owner,
    get_compressed_token_balances_by_owner,
)
from csi_conformance.reference_server.methods.transactions import get_transaction_with_compression_info
from csi_conformance.reference_server.options import ServerOptions
from csi_conformance.reference_server.pagination import decode_cursor, encode_cursor, next_cursor
from csi_conformance.reference_server.records import Account
from csi_conformance.schema import Contract, Method

__all__ = ["PAGE_LIMIT"]

PAGE_LIMIT = 1000
"""Photon's `PAGE_LIMIT` (`src/api/method/utils.rs`): the most keys one request may name, and a page's default."""


def _v1(name: str) -> Method:
    """The method of the 19 whose rules (limits, filters) a V2 method shares."""
    return Contract.default().method(name)


def _validation(message: str) -> RpcError:
    return RpcError(SERVER_ERROR, f"Validation Error: {message}")


@rpc_method("liveness")
def liveness(ledger: Ledger, params: Any, options: ServerOptions, method: Method) -> None:
    """Photon answers `()`, which is JSON null: the process is up."""
    return None


@rpc_method("readiness")
def readiness(ledger: Ledger, params: Any, options: ServerOptions, method: Method) -> None:
    """Photon answers null once its database answers; the reference's ledger is in memory, always ready."""
    return None


@rpc_method("getCompressedAccountV2")
def get_compressed_account_v2(ledger: Ledger, params: Mapping[str, Any], options: ServerOptions,
                              method: Method) -> Any:
    """The live account by address or hash as an `AccountV2`, null when there is none. Given both, the address
    answers, as Photon's `CompressedAccountRequest::parse_id` reads them (the spec's 7-C1 binds only the V1
    method)."""
    if params.get("address") is not None:
        account = ledger.live_by_address(b58decode(params["address"], length=32))
    else:
        account = lookup_live(ledger, params)
    return None if account is None else account_v2_json(ledger, account)


def _multiple(ledger: Ledger, params: Mapping[str, Any], both: str) -> list[Account | None]:
    """The live accounts named by `hashes` or `addresses`, in request order, None where there is none."""
    hashes, addresses = params.get("hashes"), params.get("addresses")
    if hashes is not None and addresses is not None:
        raise _validation(both)
    if hashes is None and addresses is None:
        raise _validation("Either hashes or addresses must be provided")
    keys, kind = (hashes, "hashes") if hashes is not None else (addresses, "addresses")
    if len(keys) > PAGE_LIMIT:
        raise _validation(f"Too many {kind} requested {len(keys)}. Maximum allowed: {PAGE_LIMIT}")
    find = ledger.live_by_hash if hashes is not None else ledger.live_by_address
    return [find(b58decode(key, length=32)) for key in keys]


@rpc_method("getMultipleCompressedAccounts")
def get_multiple_compressed_accounts(ledger: Ledger, params: Mapping[str, Any], options: ServerOptions,
                                     method: Method) -> Any:
    """`{items}`: one live account or null per key; both lists given is refused (Photon's V1 says so)."""
    found = _multiple(ledger, params, "Cannot provide both hashes and addresses")
    return {"items": [None if a is None else account_json(a) for a in found]}


@rpc_method("getMultipleCompressedAccountsV2")
def get_multiple_compressed_accounts_v2(ledger: Ledger, params: Mapping[str, Any], options: ServerOptions,
                                        method: Method) -> Any:
    """As getMultipleCompressedAccounts with `AccountV2` items; Photon's V2 refuses both lists with the
    message it gives for neither."""
    found = _multiple(ledger, params, "Either hashes or addresses must be provided")
    return {"items": [None if a is None else account_v2_json(ledger, a) for a in found]}


@rpc_method("getCompressedAccountsByOwnerV2")
def get_compressed_accounts_by_owner_v2(ledger: Ledger, params: Mapping[str, Any], options: ServerOptions,
                                        method: Method) -> Any:
    """getCompressedAccountsByOwner's page in Photon's order (leaf index, then hash; `photon_practice`), every
    item an `AccountV2`."""
    page = accounts_by_leaf_index(ledger, params, _v1("getCompressedAccountsByOwner"))
    data_slice = params.get("dataSlice")
    return {"items": [account_v2_json(ledger, account_of(ledger, item), data_slice) for item in page["items"]],
            "cursor": page["cursor"]}


def _tokens_v2(ledger: Ledger, page: Mapping[str, Any]) -> dict[str, Any]:
    items = [{"account": account_v2_json(ledger, account_of(ledger, item["account"])), "tokenData": item["tokenData"]}
             for item in page["items"]]
    return {"items": items, "cursor": page["cursor"]}


@rpc_method("getCompressedTokenAccountsByOwnerV2")
def get_compressed_token_accounts_by_owner_v2(ledger: Ledger, params: Mapping[str, Any], options: ServerOptions,
                                              method: Method) -> Any:
    """getCompressedTokenAccountsByOwner's page (mint ‖ hash order and cursor) with `AccountV2` accounts."""
    v1 = _v1("getCompressedTokenAccountsByOwner")
    return _tokens_v2(ledger, get_compressed_token_accounts_by_owner(ledger, params, options, v1))


@rpc_method("getCompressedTokenAccountsByDelegateV2")
def get_compressed_token_accounts_by_delegate_v2(ledger: Ledger, params: Mapping[str, Any], options: ServerOptions,
                                                 method: Method) -> Any:
    """getCompressedTokenAccountsByDelegate's page with `AccountV2` accounts."""
    v1 = _v1("getCompressedTokenAccountsByDelegate")
    return _tokens_v2(ledger, get_compressed_token_accounts_by_delegate(ledger, params, options, v1))


@rpc_method("getCompressedTokenBalancesByOwnerV2")
def get_compressed_token_balances_by_owner_v2(ledger: Ledger, params: Mapping[str, Any], options: ServerOptions,
                                              method: Method) -> Any:
    """getCompressedTokenBalancesByOwner's page, its list named `items` (Photon's `TokenBalanceListV2`)."""
    v1 = _v1("getCompressedTokenBalancesByOwner")
    page = get_compressed_token_balances_by_owner(ledger, params, options, v1)
    return {"items": page["token_balances"], "cursor": page["cursor"]}


@rpc_method("getCompressedMintTokenHolders")
def get_compressed_mint_token_holders(ledger: Ledger, params: Mapping[str, Any], options: ServerOptions,
                                      method: Method) -> Any:
    """The owners holding a mint with their balances, largest balance first, then owner descending; the
    cursor is balance (u64 LE) ‖ owner, as Photon pages them (`get_compressed_mint_token_holders.rs`)."""
    mint = key_param(params, "mint")
    limit = params.get("limit") or PAGE_LIMIT
    holders = [(balance, owner) for owner in ledger.tokens_by_owner.groups()
               if (balance := ledger.token_balances(owner).get(mint)) is not None]
    holders.sort(reverse=True)
    after = decode_cursor(params.get("cursor"), 40)
    if after is not None:
        bound = (int.from_bytes(after[:8], "little"), after[8:])
        holders = [holder for holder in holders if holder < bound]
    page = holders[:limit]
    items = [{"owner": key_text(owner), "balance": balance} for balance, owner in page]
    return {"items": items, "cursor": next_cursor(page, limit, _holder_cursor)}


def _holder_cursor(holder: tuple[int, bytes]) -> str:
    balance, owner = holder
    return encode_cursor(balance.to_bytes(8, "little") + owner)


@rpc_method("getCompressionSignaturesForAccount")
def get_compression_signatures_for_account(ledger: Ledger, params: Mapping[str, Any], options: ServerOptions,
                                           method: Method) -> Any:
    """`{items}`: the transactions that opened and closed the account (at most two), newest first; an account
    no transaction touched is "Record Not Found", as Photon answers."""
    account = ledger.account(b58decode(params["hash"], length=32))
    if account is None:
        raise RpcError(SERVER_ERROR, "Record Not Found: Account not found")
    touched = [ledger.transactions[s] for s in (account.opened_by, account.closed_by) if s is not None]
    touched.sort(key=lambda tx: tx.key, reverse=True)
    return {"items": [{"signature": b58encode(tx.signature), "slot": tx.slot, "blockTime": tx.block_time}
                      for tx in touched]}


@rpc_method("getTransactionWithCompressionInfoV2")
def get_transaction_with_compression_info_v2(ledger: Ledger, params: Mapping[str, Any], options: ServerOptions,
                                             method: Method) -> Any:
    """getTransactionWithCompressionInfo with `AccountV2` accounts; a closed account comes as
    `{account, nullifier, txHash}`: the nullifier and transaction hash its spend queued in a batched tree,
    the default key for a v1 account (Photon `ClosedAccountV2`, `unwrap_or_default`)."""
    v1 = get_transaction_with_compression_info(ledger, params, options,
                                                            _v1("getTransactionWithCompressionInfo"))
    if v1 is None:
        return None
    tx = ledger.transactions[b58decode(params["signature"], length=64)]
    closed = [_with_token(ledger, h, lambda a: {"account": account_v2_json(ledger, a), **_spend(ledger, a)})
              for h in tx.closed]
    opened = [_with_token(ledger, h, lambda a: account_v2_json(ledger, a)) for h in tx.opened]
    return {"compressionInfo": {"closedAccounts": closed, "openedAccounts": opened}, "transaction": v1["transaction"]}


def _with_token(ledger: Ledger, hash_: bytes, shape: Callable[[Account], Any]) -> dict[str, Any]:
    account = ledger.accounts[hash_]
    token = None if account.token is None else token_json(account.token)
    return {"account": shape(account), "optionalTokenData": token}


def _spend(ledger: Ledger, account: Account) -> dict[str, str]:
    tree = ledger.state_trees.get(account.tree)
    spend = tree.spends.get(account.leaf_index) if isinstance(tree, BatchedStateTree) else None
    if spend is None or spend.account_hash != account.hash:
        return {"nullifier": DEFAULT_KEY, "txHash": DEFAULT_KEY}
    return {"nullifier": b58encode(spend.nullifier), "txHash": b58encode(spend.tx_hash)}

