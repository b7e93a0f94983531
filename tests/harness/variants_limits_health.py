"""Broken count limits, refused §4.3 params and health answers, each caught by one limits or health check."""

from __future__ import annotations

from typing import Any

from csi_conformance.groundwork.jsonio import dumps, loads
from csi_conformance.reference_server.errors import INVALID_PARAMS, RpcError

from .broken import Dispatch, Variant


def _three_addresses_accepted(real: Dispatch, method: str, params: Any) -> Any:
    """Three new addresses are proven as if two were asked: §8 allows 1 or 2."""
    if method == "getValidityProof" and isinstance(params, dict) and len(params.get("newAddressesWithTrees") or []) > 2:
        params = {**params, "newAddressesWithTrees": params["newAddressesWithTrees"][:2]}
    return real(method, params)


def _refused_with(member: str):
    """getValidityProof refuses any request that gives `member`, a param §4.3 lists."""
    def dispatch(real: Dispatch, method: str, params: Any) -> Any:
        if method == "getValidityProof" and isinstance(params, dict) and params.get(member):
            raise RpcError(INVALID_PARAMS, f"Invalid params: unknown field `{member}`")
        return real(method, params)

    return dispatch


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
    Variant("three-addresses-accepted", "limits", "limits.validity-addresses", dispatch=_three_addresses_accepted,
            clauses=("8-L2", "4.3-R2", "7-C2")),
    Variant("hashes-refused", "limits", "limits.validity-hashes", dispatch=_refused_with("hashes"),
            clauses=("4.3-P1",)),
    Variant("addresses-with-trees-refused", "limits", "limits.validity-addresses",
            dispatch=_refused_with("newAddressesWithTrees"), clauses=("4.3-P2",)),
    Variant("health-error-malformed", "health", "health.ok", http=_health_error_malformed,
            clauses=("7-R1",)),
]
