"""An answer of the target as the checks read it: the call, the exchange, and the shortcuts every check needs."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from csi_conformance.harness.connection import NOT_JSON, Exchange

__all__ = ["Answer"]

T = TypeVar("T")


@dataclass(frozen=True)
class Answer:
    """A JSON-RPC call and what came back, with the shortcuts checks need.

    The shortcuts are plain attributes, worked out when the answer is made: every answer check
    reads them, and the body they come from never changes.
    """

    method: str
    params: Any
    exchange: Exchange
    body: Any = field(init=False, repr=False, compare=False)
    """The parsed body, or None when it is not JSON."""
    has_result: bool = field(init=False, repr=False, compare=False)
    result: Any = field(init=False, repr=False, compare=False)
    error: dict | None = field(init=False, repr=False, compare=False)
    """The JSON-RPC error object, when the answer is one."""
    value: Any = field(init=False, repr=False, compare=False)
    """`result.value` of a state query (None when absent)."""
    context_slot: int | None = field(init=False, repr=False, compare=False)
    """`result.context.slot` when the answer carries an integer one."""
    _derived: dict[Hashable, Any] = field(init=False, default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        body = None if self.exchange.json is NOT_JSON else self.exchange.json
        is_object = isinstance(body, dict)
        result = body.get("result") if is_object else None
        error = body.get("error") if is_object else None
        value = result.get("value") if isinstance(result, dict) else None
        context = result.get("context") if isinstance(result, dict) else None
        slot = context.get("slot") if isinstance(context, dict) else None
        for name, shortcut in (("body", body), ("has_result", is_object and "result" in body and "error" not in body),
                               ("result", result), ("error", error if isinstance(error, dict) else None),
                               ("value", value), ("context_slot", slot if type(slot) is int else None)):
            object.__setattr__(self, name, shortcut)

    @property
    def status(self) -> int | None:
        return self.exchange.status

    def derived(self, key: Hashable, compute: Callable[[], T]) -> T:
        """`compute()`, worked out once for this answer: the answer checks that need the same value
        derived from it (its accounts, the readings it follows) ask under the same `key`."""
        if key not in self._derived:
            self._derived[key] = compute()
        return self._derived[key]
