"""Broken variants for the `differential` family: one per check, each caught by that check.

Scenario variants (`scenario=True`) run as `--scenario default` against a clean reference over the
same scenario; the others run in mirror mode, as a plain `csi run --target URL` does.
"""

from __future__ import annotations

import copy
from typing import Any

from csi_conformance.groundwork.base58 import b58encode
from csi_conformance.reference_server.methods.shapes import account_json
from csi_conformance.reference_server.scenario import load_scenario

from .broken import Dispatch, Variant, _on, _plus_one, _slice_from_zero, _token_balance_plus_one

NARROWING = ("mint", "dataSlice", "filters")


def _counter_balance_plus_one(real: Dispatch, method: str, params: Any) -> Any:
    """One golden answer wrong: the balance of the owner with most accounts (counter) is off by one."""
    result = real(method, params)
    if method == "getCompressedBalanceByOwner" and params.get("owner") == counter():
        result = {**result, "value": result["value"] + 1}
    return result


def counter() -> str:
    """The default scenario's `counter` owner (the account of 9000 lamports is one of its)."""
    return b58encode(next(a.owner for a in load_scenario("default").accounts.values() if a.lamports == 9000))


def dropped_after_first_page(*members: str):
    """A server that honours the narrowing `members` on the first page only."""

    def dispatch(real: Dispatch, method: str, params: Any) -> Any:
        if isinstance(params, dict) and params.get("cursor"):
            params = {k: v for k, v in params.items() if k not in members}
        return real(method, params)

    return dispatch


def _multi_hash_proof_root(params: Any, result: Any) -> Any:
    """A proof of several accounts names a wrong root for the last one (single proofs stay right)."""
    value = result["value"]
    if len(params.get("hashes") or []) > 1:
        value["roots"][-1] = value["roots"][0] if value["roots"][0] != value["roots"][-1] else value["leaves"][0]
    return result


def _closed_listed_live(real: Dispatch, method: str, params: Any) -> Any:
    """An owner's list shows one of its consumed accounts as live (discovery's first page only)."""
    result = real(method, params)
    if method == "getCompressedAccountsByOwner" and params.get("limit") == 100 and not params.get("cursor"):
        closed = next((a for a in load_scenario("default").accounts.values()
                       if a.closed and b58encode(a.owner) == params["owner"]), None)
        if closed is not None:
            result = copy.deepcopy(result)
            result["value"]["items"].append(account_json(closed))
    return result


def _token_mint_ignored(real: Dispatch, method: str, params: Any) -> Any:
    if method == "getCompressedTokenAccountsByOwner" and isinstance(params, dict):
        params = {k: v for k, v in params.items() if k != "mint"}
    return real(method, params)


def _drop_first_item(params: Any, result: Any) -> Any:
    result["value"]["items"] = result["value"]["items"][1:]
    return result


VARIANTS = [
    Variant("golden-balance-wrong", "differential", "differential.cases", dispatch=_counter_balance_plus_one,
            scenario=True, only=("differential.cases",),
            clauses=("4.2-M4",)),
    # proves no clause: the case cites rows and limits a wrong root does not break; ledger-T1 and P3 are crypto's
    Variant("proof-root-wrong", "differential", "differential.cases",
            dispatch=_on("getValidityProof", _multi_hash_proof_root), scenario=True, only=("differential.cases",)),
    Variant("narrowing-dropped-after-first-page", "differential", "differential.generated",
            dispatch=dropped_after_first_page(*NARROWING), scenario=True, only=("differential.generated",),
            clauses=("4.2-M5", "4.2-M6", "4.2-M7", "4.2-M8")),
    Variant("closed-listed-live", "differential", "differential.mirror-ledger", dispatch=_closed_listed_live,
            clauses=("3.2-R2",)),
    Variant("mirror-owner-balance-plus-one", "differential", "differential.mirror-balance-by-owner",
            dispatch=_on("getCompressedBalanceByOwner", _plus_one), clauses=("4.2-M4",)),
    Variant("mirror-token-balance-plus-one", "differential", "differential.mirror-token-balances",
            dispatch=_on("getCompressedTokenBalancesByOwner", _token_balance_plus_one), clauses=("4.2-M8",)),
    Variant("mirror-slice-from-zero", "differential", "differential.mirror-account-lists", dispatch=_slice_from_zero,
            clauses=("4.2-N2",)),
    Variant("mirror-token-mint-ignored", "differential", "differential.mirror-token-lists",
            dispatch=_token_mint_ignored, clauses=("4.2-N4",)),
    Variant("mirror-owner-signatures-short", "differential", "differential.mirror-signatures",
            dispatch=_on("getCompressionSignaturesForOwner", _drop_first_item), clauses=("4.2-M12",)),
]
