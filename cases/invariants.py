"""Named properties of an answer, for cases whose mode is `invariant:<name>`.

An invariant says what must hold of any conforming answer where the exact answer is not the
point: the spec fixes no error code (7-R5), so a refused request only has to be *an* error;
a not-found answer only has to be null or empty, whichever wrapper a reading puts around it.
Each invariant is a name, a sentence, and a test over the parsed answer body that returns
None when the property holds and the reason when it does not.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from csi_conformance.groundwork.errors import ConfigError
from csi_conformance.schema import Contract

__all__ = ["INVARIANTS", "Invariant", "check_invariant"]


@dataclass(frozen=True)
class Invariant:
    """A property of an answer body; `test` returns None when it holds, else why not."""

    name: str
    description: str
    test: Callable[[Any], str | None]


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    return {dict: "an object", list: "an array", str: "a string", bool: "a boolean"}.get(type(value), "a number")


def _result(body: Any) -> tuple[Any, str | None]:
    """The `result` of a success body, or the reason the body is not one."""
    if not isinstance(body, dict):
        return None, f"the answer is {_kind(body)}, not a JSON-RPC response object"
    if "error" in body:
        return None, "the answer is an error, not a result"
    if "result" not in body:
        return None, "the answer has no result"
    return body["result"], None


def _value(body: Any) -> tuple[Any, str | None]:
    """`result.value` of a `{context, value}` state answer, or the reason there is none."""
    result, problem = _result(body)
    if problem:
        return None, problem
    if not isinstance(result, dict) or "context" not in result or "value" not in result:
        return None, f"the result is {_kind(result)} without context and value"
    return result["value"], None


def _error(body: Any) -> str | None:
    """A JSON-RPC error as the contract's `Error` definition has it, whatever the code (7-R1)."""
    if isinstance(body, dict) and "result" in body:
        return "the answer carries a result, not an error"
    violations = Contract.default().validator("Error").violations(body)
    return f"not a JSON-RPC error object: {violations[0]}" if violations else None


def _null_value(body: Any) -> str | None:
    """A state answer `{context, value: null}` (7-N1)."""
    value, problem = _value(body)
    if problem:
        return problem
    return None if value is None else f"result.value is {_kind(value)}, not null"


def _null_answer(body: Any) -> str | None:
    """A null result, or a `{context, value: null}` one: both readings of transaction-context (7-N2)."""
    result, problem = _result(body)
    if problem:
        return problem
    if result is None:
        return None
    if isinstance(result, dict) and "context" in result and result.get("value", 0) is None:
        return None
    return f"the result is {_kind(result)}, neither null nor a {{context, value: null}} object"


@cache
def _item_keys() -> frozenset[str]:
    """The members that hold a page's items (`items`, `token_balances`), from the contract."""
    return frozenset(m.pagination.items for m in Contract.default().methods.values() if m.pagination)


def _empty_items(body: Any) -> str | None:
    """A list answer whose items member is an empty array (7-N3)."""
    value, problem = _value(body)
    if problem:
        return problem
    keys = sorted(_item_keys() & set(value)) if isinstance(value, dict) else []
    if len(keys) != 1:
        return f"result.value has no single items member (one of {sorted(_item_keys())})"
    items = value[keys[0]]
    if items != []:
        return f"result.value.{keys[0]} is {_kind(items)}" + (f" of {len(items)}" if isinstance(items, list) else "")
    return None


INVARIANTS: Mapping[str, Invariant] = {
    invariant.name: invariant
    for invariant in (
        Invariant("error", "a JSON-RPC error object (any code), never a result", _error),
        Invariant("null-value", "a {context, value} result whose value is null", _null_value),
        Invariant("null-answer", "a null result, or a {context, value} result whose value is null", _null_answer),
        Invariant("empty-items", "a {context, value} result whose items (or token_balances) array is empty",
                  _empty_items),
    )
}
"""Every invariant a case may name, by name."""


def check_invariant(name: str, answer_body: Any) -> str | None:
    """None when the parsed answer body has the named property, else the reason it does not."""
    try:
        invariant = INVARIANTS[name]
    except KeyError:
        raise ConfigError(f"unknown invariant {name!r} (known: {', '.join(INVARIANTS)})") from None
    return invariant.test(answer_body)
