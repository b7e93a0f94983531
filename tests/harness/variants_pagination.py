"""Broken variants caught by the `pagination` checks (besides those in `broken.py`)."""

from __future__ import annotations

from typing import Any

from .broken import Dispatch, Variant

__all__ = ["VARIANTS"]


def _null_cursor_always(real: Dispatch, method: str, params: Any) -> Any:
    """Every page says no more results, whatever remains."""
    result = real(method, params)
    value = result.get("value") if isinstance(result, dict) else None
    if isinstance(value, dict) and "cursor" in value:
        result = {**result, "value": {**value, "cursor": None}}
    return result


def _no_items_when_empty(real: Dispatch, method: str, params: Any) -> Any:
    """An empty list answered as a missing one."""
    result = real(method, params)
    value = result.get("value") if isinstance(result, dict) else None
    if isinstance(value, dict):
        value = {key: (None if item == [] else item) for key, item in value.items()}
        result = {**result, "value": value}
    return result


VARIANTS = [
    Variant("null-cursor-always", "pagination", "pagination.null-cursor-at-end", dispatch=_null_cursor_always,
            clauses=("4.1-R8",)),
    Variant("empty-list-as-null", "pagination", "pagination.empty-owner", dispatch=_no_items_when_empty,
            clauses=("7-N3",)),
]
