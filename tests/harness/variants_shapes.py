"""Broken §2 shapes: one member of one component wrong, each caught by schema.result citing that component.

A schema finding cites the method's row, the innermost §2 component the wrong member lies in and,
when the member's own type is a §2.1 format or an open point, that clause too: a string `amount`
of TokenData cites 4.2-M6, 2.5-R1 and 2.1-R3. Each variant breaks one member in one method's
answers, so the clauses it declares are exactly the ones its fault violates.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .broken import Variant, _each_account, _each_node, _on

CHECK = "schema.result"
ONLY = (CHECK, "params.generated-valid")
"""Discovery asks for lists and transactions; the valid requests of the params family reach every method."""


def _items(key: str, change: Callable[[dict], None]) -> Callable[[Any, Any], Any]:
    """A change to every element of `value[key]` (`items`, `token_balances`) of an answer."""
    def changed(params: Any, result: Any) -> Any:
        for item in result["value"][key]:
            change(item)
        return result

    return changed


def _as_text(key: str) -> Callable[[dict], None]:
    def change(node: dict) -> None:
        node[key] = str(node[key])

    return change


def _without(key: str) -> Callable[[dict], None]:
    return lambda node: node.pop(key, None)


def _token_data(change: Callable[[dict], None]) -> Callable[[Any, Any], Any]:
    return lambda params, result: _each_node(result, lambda node: {"mint", "amount", "state"} <= set(node), change)


def _account_data(change: Callable[[dict], None]) -> Callable[[Any, Any], Any]:
    def changed(params: Any, result: Any) -> Any:
        return _each_account(result, lambda account: change(account["data"]) if account.get("data") else None)

    return changed


def _compression_info(change: Callable[[dict], None]) -> Callable[[Any, Any], Any]:
    def changed(params: Any, result: Any) -> Any:
        info = (result or {}).get("compressionInfo")
        if isinstance(info, dict):
            change(info)
        return result

    return changed


def _opened(change: Callable[[dict], None]) -> Callable[[dict], None]:
    return lambda info: [change(item) for item in info["openedAccounts"]]


def _balance_change(info: dict) -> None:
    """§2.11's token balances before the transaction, with an amount as text."""
    token = next((item["optionalTokenData"] for item in info["closedAccounts"] + info["openedAccounts"]
                  if item.get("optionalTokenData")), None)
    if token is not None:
        info["preTokenBalances"] = [{"owner": token["owner"], "mint": token["mint"], "amount": str(token["amount"])}]


def _validity(change: Callable[[dict], None]) -> Callable[[Any, Any], Any]:
    def changed(params: Any, result: Any) -> Any:
        change(result["value"])
        return result

    return changed


def _roots_in_hex(value: dict) -> None:
    """Roots as hexadecimal text: neither a JSON integer nor a base58 Hash (both readings of bn-values)."""
    value["roots"] = ["0x" + "ab" * 32 for _ in value["roots"]]


def _set_member(key: str, value: Any) -> Callable[[dict], None]:
    def change(node: dict) -> None:
        node[key] = value

    return change


def _cursor_a_number(params: Any, result: Any) -> Any:
    result["value"]["cursor"] = 5
    return result


def _value_dropped(params: Any, result: Any) -> Any:
    return {"context": result["context"]}


def _slot_as_text(params: Any, result: Any) -> Any:
    return str(result)


def _shape(name: str, method: str, change: Callable[[Any, Any], Any], clauses: tuple[str, ...]) -> Variant:
    return Variant(name, "schema", CHECK, dispatch=_on(method, change), only=ONLY, clauses=clauses)


ACCOUNTS, TOKENS = "getCompressedAccountsByOwner", "getCompressedTokenAccountsByOwner"
INFO, VALIDITY = "getTransactionWithCompressionInfo", "getValidityProof"

VARIANTS = [
    _shape("result-without-value", "getCompressedBalanceByOwner", _value_dropped, ("4.2-M4", "4.1-R7")),
    _shape("indexer-slot-text", "getIndexerSlot", _slot_as_text, ("4.2-M19",)),
    _shape("data-discriminator-text", ACCOUNTS, _account_data(_as_text("discriminator")),
           ("4.2-M5", "2.4-R1", "2.1-R3")),
    _shape("cursor-a-number", ACCOUNTS, _cursor_a_number, ("4.2-M5", "2.1-R4")),
    _shape("token-amount-text", TOKENS, _token_data(_as_text("amount")), ("4.2-M6", "2.5-R1", "2.1-R3")),
    _shape("token-state-unnamed", TOKENS, _token_data(_set_member("state", "active")),
           ("4.2-M6", "2.5-R1", "3.1-R1")),
    _shape("token-account-without-token-data", TOKENS, _items("items", _without("tokenData")), ("4.2-M6", "2.6-R1")),
    _shape("token-balance-text", "getCompressedTokenBalancesByOwner", _items("token_balances", _as_text("balance")),
           ("4.2-M8", "2.7-R1", "2.1-R3")),
    _shape("block-time-text", "getCompressionSignaturesForOwner", _items("items", _as_text("blockTime")),
           ("4.2-M12", "2.8-R1", "2.1-R3")),
    _shape("non-voting-error-number", "getLatestNonVotingSignatures", _items("items", _set_member("error", 1)),
           ("4.2-M15", "2.8-R2")),
    _shape("root-seq-text", "getMultipleNewAddressProofs",
           lambda params, result: [_as_text("rootSeq")(item) for item in result["value"]] and result,
           ("4.2-M16", "2.9-R1", "2.1-R3")),
    _shape("validity-without-leaves", VALIDITY, _validity(_without("leaves")), ("4.2-M17", "2.10-R1")),
    _shape("validity-roots-in-hex", VALIDITY, _validity(_roots_in_hex), ("4.2-M17", "2.10-R1", "2.1-R6")),
    _shape("compression-info-without-closed", INFO, _compression_info(_without("closedAccounts")),
           ("4.2-M10", "2.11-R1")),
    _shape("opened-item-without-account", INFO, _compression_info(_opened(_without("account"))),
           ("4.2-M10", "2.11-R2")),
    _shape("token-balance-change-text", INFO, _compression_info(_balance_change), ("4.2-M10", "2.11-R3", "2.1-R3")),
]
