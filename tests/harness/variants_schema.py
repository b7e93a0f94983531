"""Broken variants for the schema checks: malformed failure bodies, a negative slot, a reading other than observed
practice (which proves no clause: the spec allows it)."""

from __future__ import annotations

from typing import Any

from .broken import Dispatch, Variant

STATE_NUMBERS = {"initialized": 0, "frozen": 1}


def _html_500_health(path: str, status: int, headers: dict, body: bytes) -> tuple[int, dict, bytes]:
    """getIndexerHealth fails with an HTML page and HTTP 500, where §7 gives the body `{error: string}`."""
    if b'"result":"ok"' in body:
        return 500, {**headers, "content-type": "text/html"}, b"<html><body>Internal Server Error</body></html>"
    return status, headers, body


def _html_429_health(path: str, status: int, headers: dict, body: bytes) -> tuple[int, dict, bytes]:
    """getIndexerHealth is rate limited with an HTML page, where §7 gives the 429 body `{error: string}`
    (`Retry-After: 0`, so the kit's back-off costs nothing)."""
    if b'"result":"ok"' in body:
        return 429, {**headers, "content-type": "text/html", "retry-after": "0"}, b"<html>Too Many Requests</html>"
    return status, headers, body


def _slot_below_zero(real: Dispatch, method: str, params: Any) -> Any:
    """Every `context.slot` negative, where §2.2 types it as an integer slot (§2.1: non-negative)."""
    result = real(method, params)
    if isinstance(result, dict) and isinstance(result.get("context"), dict):
        result = {**result, "context": {"slot": -1}}
    return result


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
    Variant("html-429-health", "schema", "schema.error-body", http=_html_429_health, only=("schema", "health"),
            clauses=("7-R2",)),
    Variant("context-slot-below-zero", "schema", "schema.context-slot", dispatch=_slot_below_zero,
            clauses=("2.2-R1",)),
    # proves no clause: the client guide's number is a reading the spec allows (3.1-R1), not a violation
    Variant("token-state-integer", "schema", "schema.ambiguity-readings", dispatch=token_state_integer),
]
