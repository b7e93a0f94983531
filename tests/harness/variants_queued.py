"""Broken places of queued accounts that only the programs catch: each caught by `onchain.queued-spend`.

Served by the reference over a chain of today's programs (tests/harness/onchain/test_queued.py), each
variant rewrites what getCompressedAccount says of an account waiting in a batched tree's output
queue: its leaf index one off, the other batched tree, nothing (as if spent) for a live one, or a
spent one served as live (an indexer that never saw the spends by index). `SAYS` holds the words
the finding must carry: the program's refusal, or what it accepts.
"""

from __future__ import annotations

import copy
from typing import Any

from csi_conformance.groundwork.base58 import b58decode

from .broken import Dispatch, Variant, _on

ACCOUNT = "getCompressedAccount"
CHECK = "onchain.queued-spend"
BATCHED = ("bmt1LryLZUMmF7ZtqESaw7wifBXLfXHQYoE4GAmrahU", "bmt2UxoBxB9xWev4BkLvkGdapsz6sZGkzViPNph7VFi")
"""The two batched state trees a chain of today's programs writes (`ledger_chain.programs_0_28.BATCHED_TREES`)."""


def _rewrite_value(change: Any) -> Any:
    def rewrite(params: Any, result: Any) -> Any:
        value = result.get("value") if isinstance(result, dict) else None
        if isinstance(value, dict) and value.get("tree") in BATCHED:
            change(value)
        return result

    return rewrite


def _leaf_one_up(value: dict[str, Any]) -> None:
    value["leafIndex"] += 1


def _other_tree(value: dict[str, Any]) -> None:
    value["tree"] = BATCHED[1 - BATCHED.index(value["tree"])]


def _not_served(params: Any, result: Any) -> Any:
    value = result.get("value") if isinstance(result, dict) else None
    if isinstance(value, dict) and value.get("tree") in BATCHED:
        result["value"] = None
    return result


def _spends_ignored(real: Dispatch, method: str, params: Any) -> Any:
    """An indexer that never saw the spends by index: a spent account it is asked about is served as live.
    Needs the ledger the dispatcher serves (`real.ledger`, tests/harness/onchain/serving.py)."""
    ledger = getattr(real, "ledger", None)
    if method != ACCOUNT or ledger is None or not isinstance(params, dict) or "hash" not in params:
        return real(method, params)
    account = ledger.account(b58decode(params["hash"], length=32))
    closed_by = account.closed_by if account is not None else None
    if account is not None:
        account.closed_by = None
    try:
        return copy.deepcopy(real(method, params))
    finally:
        if account is not None:
            account.closed_by = closed_by


def _variant(name: str, clauses: tuple[str, ...], **fault: Any) -> Variant:
    return Variant(name, "onchain", CHECK, only=("onchain",), clauses=clauses, prover=True, **fault)


VARIANTS: list[Variant] = [
    _variant("queued-leaf-index-one-up", ("ledger-B3",), dispatch=_on(ACCOUNT, _rewrite_value(_leaf_one_up))),
    _variant("queued-in-the-other-tree", ("ledger-B1", "ledger-B3"),
             dispatch=_on(ACCOUNT, _rewrite_value(_other_tree))),
    _variant("queued-live-not-served", ("4.2-M1", "3.2-R1"), dispatch=_on(ACCOUNT, _not_served)),
    _variant("queued-spent-served-as-live", ("3.2-R2", "4.2-M1"), dispatch=_spends_ignored),
]

SAYS = {
    "queued-leaf-index-one-up": "Custom(14307): inclusion by index failed: the output queue does not hold this "
                                "account at that leaf index",
    "queued-in-the-other-tree": "Queued account refused on-chain at the tree served",
    "queued-live-not-served": "accepted by the programs: the account is live there",
    "queued-spent-served-as-live": "Custom(14307): inclusion by index failed",
}
"""Words the caught finding carries, by variant."""
