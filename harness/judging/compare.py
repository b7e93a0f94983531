"""A structural diff of two JSON values, exact: the lines a differential finding shows.

Values are compared by JSON kind first (`1`, `1.0` and `true` are three different things),
then integers by value with no float in between, so a lamport off by one at 2^64 is seen.
Lists are aligned as sequences, so one item missing from a page is one line, not a shift of
every item after it.

    differences({"a": 1, "b": [1, 2]}, {"a": 1, "b": [1, 2, 3]})
    -> [Difference("b[2]", MISSING, 3)]
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Any

from csi_conformance.groundwork import jsonio
from csi_conformance.harness.core.values import jsonable

__all__ = ["MISSING", "Difference", "canonical", "differences", "render", "shown", "sides"]


class _Missing:
    def __repr__(self) -> str:
        return "(absent)"


MISSING: Any = _Missing()
"""The side of a difference where a member or list item does not exist."""

SHOWN = 160
"""Characters of a value shown in one difference line."""


@dataclass(frozen=True)
class Difference:
    """One place where the two values differ: the path, what the target has, what the reference has."""

    path: str
    target: Any
    reference: Any

    def line(self, width: int = SHOWN) -> str:
        return f"{self.path or '(whole answer)'}: target {shown(self.target, width)} | reference " \
               f"{shown(self.reference, width)}"


def shown(value: Any, width: int = SHOWN) -> str:
    """`value` as compact JSON (exact integers), cut to `width` characters."""
    if value is MISSING:
        return "(absent)"
    try:
        text = jsonio.dumps(value)
    except (TypeError, ValueError):
        text = jsonio.dumps(jsonable(value))
    return text if len(text) <= width else text[: width - 1] + "…"


def canonical(value: Any) -> str:
    """Compact JSON with object members sorted: equal texts are equal JSON values (exact integers)."""

    def ordered(item: Any) -> Any:
        if isinstance(item, dict):
            return {key: ordered(item[key]) for key in sorted(item)}
        if isinstance(item, list | tuple):
            return [ordered(element) for element in item]
        return item

    return jsonio.dumps(ordered(value))


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    for kind, types in (("boolean", bool), ("integer", int), ("number", float), ("string", str),
                        ("array", list | tuple), ("object", dict)):
        if isinstance(value, types):
            return kind
    return type(value).__name__


def differences(target: Any, reference: Any, path: str = "") -> list[Difference]:
    """Every difference between `target` and `reference`, leaves first found first."""
    kind = _kind(target)
    if kind != _kind(reference):
        return [Difference(path, target, reference)]
    if kind == "object":
        found = []
        for key in list(reference) + [k for k in target if k not in reference]:
            found += differences(target.get(key, MISSING), reference.get(key, MISSING), _member(path, key))
        return [d for d in found if d.target is not MISSING or d.reference is not MISSING]
    if kind == "array":
        return _list_differences(list(target), list(reference), path)
    return [] if target == reference else [Difference(path, target, reference)]


def json_path(found: list[Difference]) -> str:
    """The first difference's place as a finding names a member: `result.value.items[3]` is
    `$.result.value.items[3]`; no difference, or one of the whole answer, is `$`."""
    path = found[0].path if found else ""
    return "$" + ("" if not path else path if path.startswith("[") else "." + path)


def _member(path: str, key: str) -> str:
    return f"{path}.{key}" if path else str(key)


def _list_differences(target: list, reference: list, path: str) -> list[Difference]:
    """Align the lists by their items' canonical JSON; replaced runs are compared item by item.

    A reference item the target lacks is `path[i]` (i in the reference); an item only the target
    has is `path[+i]` (i in the target)."""
    keys_t = [canonical(item) for item in target]
    keys_r = [canonical(item) for item in reference]
    if keys_t == keys_r:
        return []
    found: list[Difference] = []
    matcher = difflib.SequenceMatcher(a=keys_r, b=keys_t, autojunk=False)
    for tag, r1, r2, t1, t2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        pairs = min(r2 - r1, t2 - t1)
        for offset in range(pairs):
            found += differences(target[t1 + offset], reference[r1 + offset], f"{path}[{r1 + offset}]")
        found += [Difference(f"{path}[{i}]", MISSING, reference[i]) for i in range(r1 + pairs, r2)]
        found += [Difference(f"{path}[+{i}]", target[i], MISSING) for i in range(t1 + pairs, t2)]
    return found


SIDES = 20
"""Differing members a finding's two sides keep; the answers themselves are in the finding whole."""


def sides(found: list[Difference], limit: int = SIDES) -> tuple[dict[str, Any], dict[str, Any]]:
    """The differences as a finding's two values: (the reference's side, the target's side), each a
    mapping from a member's JSON path to its value there, a member absent on a side left out of it."""
    reference: dict[str, Any] = {}
    target: dict[str, Any] = {}
    for difference in found[:limit]:
        where = json_path([difference])
        if difference.reference is not MISSING:
            reference[where] = difference.reference
        if difference.target is not MISSING:
            target[where] = difference.target
    return reference, target


def render(found: list[Difference], *, limit: int = 12, width: int = SHOWN) -> str:
    """The differences as lines, `path: target X | reference Y`, at most `limit` of them."""
    lines = [d.line(width) for d in found[:limit]]
    if len(found) > limit:
        lines.append(f"… and {len(found) - limit} more difference(s)")
    return "\n".join(lines)
