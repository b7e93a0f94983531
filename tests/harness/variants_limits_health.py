"""Broken count limits and health answers, each caught by one limits or health check."""

from __future__ import annotations

from typing import Any

from schema.jsonio import dumps, loads

from .broken import Dispatch, Variant


def _three_addresses_accepted(real: Dispatch, method: str, params: Any) -> Any:
    """Three new addresses are proven as if two were asked: §8 allows 1 or 2."""
    if method == "getValidityProof" and isinstance(params, dict) and len(params.get("newAddressesWithTrees") or []) > 2:
        params = {**params, "newAddressesWithTrees": params["newAddressesWithTrees"][:2]}
    return real(method, params)


def _health_error_malformed(path: str, status: int, headers: dict, body: bytes) -> tuple[int, dict, bytes]:
    """getIndexerHealth answers an error whose code is a string and whose message is a number."""
    try:
        document = loads(body)
    except Exception:
        return status, headers, body
    if isinstance(document, dict) and document.get("result") == "ok":
        document = {"jsonrpc": "2.0", "id": document.get("id"), "error": {"code": "stale", "message": 42}}
    return status, headers, dumps(document).encode()


VARIANTS = [
    Variant("three-addresses-accepted", "limits", "limits.validity-addresses", dispatch=_three_addresses_accepted),
    Variant("health-error-malformed", "health", "health.ok", http=_health_error_malformed,
            clauses=("7-C3", "7-R1")),
]
