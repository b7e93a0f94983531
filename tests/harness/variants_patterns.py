"""Broken servers that show only in a pattern or in a body nobody asked about: an indexer slot behind every
answer it just gave, an HTML page for a malformed request, a refusal in the middle of a walk."""

from __future__ import annotations

import itertools
from typing import Any

from csi_conformance.reference_server.errors import SERVER_ERROR, RpcError

from .broken import Dispatch, Variant


def _slot_behind_answers(real: Dispatch, method: str, params: Any) -> Any:
    """getIndexerSlot a few slots below the slot the answers are computed at, always: no race does that."""
    result = real(method, params)
    return result - 3 if method == "getIndexerSlot" and type(result) is int else result


def _html_500_for_malformed(path: str, status: int, headers: dict, body: bytes) -> tuple[int, dict, bytes]:
    """A body that is not JSON gets an HTML error page with HTTP 500, where §7 gives `{error: string}`."""
    if status == 400 and b"-32700" in body:
        return 500, {**headers, "content-type": "text/html"}, b"<html><body><h1>500 Internal Server Error</h1>"
    return status, headers, body


def _later_pages_refused(*methods: str):
    """Continuation pages (those asked with a cursor) of these lists are refused: a walk breaks midway."""
    def dispatch(real: Dispatch, method: str, params: Any) -> Any:
        if method in methods and isinstance(params, dict) and params.get("cursor"):
            raise RpcError(SERVER_ERROR, "Internal error: cursor expired")
        return real(method, params)

    return dispatch


def _every_second_balance_refused() -> Any:
    count = itertools.count()

    def dispatch(real: Dispatch, method: str, params: Any) -> Any:
        if method == "getCompressedTokenBalancesByOwner" and next(count) % 2:
            raise RpcError(SERVER_ERROR, "Internal error")
        return real(method, params)

    return dispatch


VARIANTS = [
    Variant("slot-behind-every-answer", "health", "health.slot-behind-answers", dispatch=_slot_behind_answers,
            clauses=("4.2-M19", "2.2-R1")),
    Variant("html-500-for-malformed-requests", "schema", "schema.error-body", http=_html_500_for_malformed,
            only=("schema", "envelope"), clauses=("7-R3",)),
    Variant("continuation-pages-refused", "consistency", "consistency.filters",
            dispatch=_later_pages_refused("getCompressedAccountsByOwner"), clauses=("4.1-R5",)),
    Variant("token-balances-refused-now-and-then", "consistency", "consistency.token-balances",
            dispatch=_every_second_balance_refused(), clauses=("4.1-R5",)),
]
