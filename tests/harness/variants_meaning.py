"""A method not served, and the balance of an account the target does not hold, served wrong.

A method answered "Method not found" is one finding of `health.methods-served` (the checks that need it are
N/A: tests/harness/test_meaning_runs.py); an unknown or closed account's balance answered with an error
where the contract records 0 as practice is caught by `consistency.unknown-balance`.
"""

from __future__ import annotations

from typing import Any

from csi_conformance.reference_server.errors import METHOD_NOT_FOUND, RpcError

from .broken import Dispatch, Variant

NOT_SERVED = "getCompressedAccountBalance"
BALANCES = ("getCompressedAccountBalance", "getCompressedBalance")


def not_served(real: Dispatch, method: str, params: Any) -> Any:
    if method == NOT_SERVED:
        raise RpcError(METHOD_NOT_FOUND, f"Method not found: {method!r}")
    return real(method, params)


def _unknown_balance_refused(real: Dispatch, method: str, params: Any) -> Any:
    """A balance of an account the ledger does not hold live answered with an error, as a record not found."""
    if method in BALANCES and isinstance(params, dict) and params.get("hash") \
            and real("getCompressedAccount", {"hash": params["hash"]}).get("value") is None:
        raise RpcError(-32000, "Record Not Found: Account not found")
    return real(method, params)


VARIANTS = [
    Variant("method-not-served", "health", "health.methods-served", dispatch=not_served, clauses=("4.2-M2",)),
    # proves no clause: the spec is silent on an unknown account's balance; the finding rests on observed practice
    Variant("unknown-balance-refused", "consistency", "consistency.unknown-balance",
            dispatch=_unknown_balance_refused),
]
