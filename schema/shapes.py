"""The objects the schemas describe: each one's members, which it requires, and which may be null.

A differential needs what the spec marks optional: a member an object's `required` list leaves out
may be absent from one answer and present in another. This reads it from the schemas, for every
object reachable from a definition (named or inline, `allOf` parts joined), so no list elsewhere
restates which members are optional.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["Shape", "allows_null", "shapes_under"]

_PREFIX = "#/$defs/"


@dataclass(frozen=True)
class Shape:
    """One object schema: the definition it sits in, its members (name -> schema) and the required ones."""

    definition: str
    members: Mapping[str, Any]
    required: frozenset[str]

    @property
    def optional(self) -> tuple[str, ...]:
        """Members it allows and does not require, in schema order (a member whose schema is `false` is forbidden)."""
        return tuple(name for name, schema in self.members.items() if name not in self.required and schema is not False)

    def fits(self, members: set[str]) -> bool:
        """Whether an object with these members can be this shape: every required one there, none unknown."""
        return self.required <= members and members <= set(self.members)


def _resolve(defs: Mapping[str, Any], node: Any) -> Any:
    while isinstance(node, dict) and isinstance(node.get("$ref"), str):  # siblings of a $ref are annotations
        node = defs[node["$ref"].removeprefix(_PREFIX)]
    return node


def _declared(defs: Mapping[str, Any], node: Any) -> tuple[dict[str, Any], set[str]]:
    """The members and required members a node declares, with those of its `allOf` parts."""
    node = _resolve(defs, node)
    if not isinstance(node, dict):
        return {}, set()
    members, required = dict(node.get("properties") or {}), set(node.get("required") or ())
    for part in node.get("allOf") or ():
        more, needed = _declared(defs, part)
        members, required = {**more, **members}, required | needed
    return members, required


def shapes_under(defs: Mapping[str, Any], definition: str) -> tuple[Shape, ...]:
    """Every object shape an instance of `definition` can hold (through `$ref`, under every reading in `defs`)."""
    found: list[Shape] = []

    def visit(node: Any, where: str, part: bool) -> None:
        """`part`: the node is a part of an `allOf`, whose members its whole object declares (`_declared`)."""
        if isinstance(node, list):
            for item in node:
                visit(item, where, part)
            return
        if not isinstance(node, dict):
            return
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith(_PREFIX) and (ref[len(_PREFIX):], part) not in seen:
            seen.add((ref[len(_PREFIX):], part))
            visit(defs[ref[len(_PREFIX):]], ref[len(_PREFIX):], part)
        if isinstance(node.get("properties"), dict) and not part:
            members, required = _declared(defs, node)
            found.append(Shape(where, members, frozenset(required)))
        for key, value in node.items():
            if key != "$ref":
                visit(value, where, key == "allOf" or (part and key in ("anyOf", "oneOf")))

    seen: set[tuple[str, bool]] = {(definition, False)}
    visit(defs[definition], definition, False)
    return tuple(found)


def allows_null(defs: Mapping[str, Any], schema: Any) -> bool:
    """Whether `schema` accepts `null`: then an absent member says what `null` says."""
    schema = _resolve(defs, schema)
    if schema is True or schema == {}:
        return True
    if not isinstance(schema, dict):
        return False
    kinds = schema.get("type")
    if kinds == "null" or (isinstance(kinds, list) and "null" in kinds):
        return True
    if ("const" in schema and schema["const"] is None) or None in (schema.get("enum") or ()):
        return True
    return any(allows_null(defs, part) for key in ("anyOf", "oneOf") for part in schema.get(key) or ())
