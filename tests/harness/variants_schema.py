"""Broken variants for the schema checks: a malformed failure body, a reading other than observed practice."""

from __future__ import annotations

from typing import Any

from .broken import Dispatch, Variant

STATE_NUMBERS = {"initialized": 0, "frozen": 1}


def _html_500_health(path: str, status: int, headers: dict, body: bytes) -> tuple[int, dict, bytes]:
    """getIndexerHealth fails with an HTML page and HTTP 500, where §7 gives the body `{error: string}`."""
    if b'"result":"ok"' in body:
        return 500, {**headers, "content-type": "text/html"}, b"<html><body>Internal Server Error</body></html>"
    return status, headers, body


def _numeric_states(node: Any) -> Any:
    if isinstance(node, dict):
        if node.get("state") in STATE_NUMBERS and "mint" in node:
            node["state"] = STATE_NUMBERS[node["state"]]
        for value in node.values():
            _numeric_states(value)
    elif isinstance(node, list):
        for item in node:
            _numeric_states(item)
    return node


def token_state_integer(real: Dispatch, method: str, params: Any) -> Any:
    """TokenData.state as the client guide's number (§3.1): a reading the spec allows, not observed practice."""
    return _numeric_states(real(method, params))


VARIANTS = [
    Variant("html-500-health", "schema", "schema.error-body", http=_html_500_health, only=("schema", "transport"),
            clauses=("7-R3",)),
    Variant("token-state-integer", "schema", "schema.ambiguity-readings", dispatch=token_state_integer),
]
