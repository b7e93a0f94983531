"""A schema read as a tree of members: each path (`params.hash`, `result.value.items[].tree`) with its JSON types,
whether it may be null, and whether its object requires it.

`csi schema diff` compares two such trees. It reads JSON Schema 2020-12 (the contract) and OpenAPI 3.0 schemas
(`nullable: true`) alike: `$ref` is a JSON pointer into the document the schema sits in, `allOf` narrows,
`anyOf`/`oneOf` widen, and a member is required when every object branch requires it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["ANY", "Member", "Node", "members", "node_of", "resolve"]

ANY = frozenset({"any"})
"""The types of a schema that constrains none."""
_MAX_DEPTH = 24


@dataclass(frozen=True)
class Member:
    """One path of a tree: its JSON types (`null` apart), nullability, and whether its object requires it."""

    types: frozenset[str]
    nullable: bool
    required: bool

    def type_text(self) -> str:
        return "any" if self.types == ANY else "|".join(sorted(self.types))


@dataclass
class Node:
    """A schema reduced to what the tree needs: its types, its members (each a list of schemas, all of which
    hold) and the members it requires, the schema of its items."""

    types: frozenset[str]
    nullable: bool
    properties: dict[str, list[Any]]
    required: set[str]
    items: list[Any]


def _types_of(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


def _narrow(a: frozenset[str], b: frozenset[str]) -> frozenset[str]:
    if a == ANY:
        return b
    if b == ANY:
        return a
    return a & b


def _widen(a: frozenset[str], b: frozenset[str]) -> frozenset[str]:
    return ANY if ANY in (a, b) else a | b


def resolve(document: Mapping[str, Any], ref: str) -> Any:
    """The schema a local `$ref` (a JSON pointer) names in `document`."""
    node: Any = document
    for part in ref.lstrip("#").strip("/").split("/"):
        part = part.replace("~1", "/").replace("~0", "~")
        if not isinstance(node, Mapping) or part not in node:
            raise KeyError(ref)
        node = node[part]
    return node


def node_of(schema: Any, document: Mapping[str, Any], depth: int = 0) -> Node:
    """The node a schema stands for, its `$ref`, `allOf`, `anyOf` and `oneOf` folded in."""
    if schema is False:
        return Node(frozenset(), False, {}, set(), [])
    if schema is True or not isinstance(schema, Mapping) or depth > _MAX_DEPTH:
        return Node(ANY, True, {}, set(), [])
    types: frozenset[str] = ANY
    nullable = False
    if "type" in schema:
        named = {schema["type"]} if isinstance(schema["type"], str) else set(schema["type"])
        nullable = "null" in named
        types = frozenset(named - {"null"})
    elif "const" in schema or "enum" in schema:
        values = [schema["const"]] if "const" in schema else list(schema["enum"])
        nullable = None in values
        types = frozenset(_types_of(v) for v in values if v is not None)
    nullable = nullable or schema.get("nullable") is True
    node = Node(types, nullable or types == ANY, {k: [v] for k, v in schema.get("properties", {}).items()},
                set(schema.get("required", ())), [schema["items"]] if "items" in schema else [])
    forbidden = (schema.get("not") or {}).get("required", ()) if isinstance(schema.get("not"), Mapping) else ()
    if len(forbidden) == 1:  # `not: {required: [m]}`: m must be absent (a JSON-RPC error has no `result`)
        node.properties[forbidden[0]] = [False]
    parts = [resolve(document, schema["$ref"])] if "$ref" in schema else []
    for part in [*parts, *schema.get("allOf", ())]:
        _narrow_into(node, node_of(part, document, depth + 1))
    for key in ("anyOf", "oneOf"):
        if key in schema:
            _narrow_into(node, _union([node_of(b, document, depth + 1) for b in schema[key]]))
    if schema.get("nullable") is True:
        node.nullable = True
    return node


def _narrow_into(node: Node, other: Node) -> None:
    node.types = _narrow(node.types, other.types)
    node.nullable = node.nullable and other.nullable
    for name, schemas in other.properties.items():
        node.properties.setdefault(name, []).extend(schemas)
    node.required |= other.required
    node.items += other.items


def _union(branches: list[Node]) -> Node:
    types: frozenset[str] = frozenset()
    for branch in branches:
        types = _widen(types, branch.types)
    objects = [b for b in branches if b.types == ANY or "object" in b.types]
    properties: dict[str, list[Any]] = {}
    for name in {name for branch in objects for name in branch.properties}:
        # a branch without the member leaves it free: the member is then whatever the other keywords say
        properties[name] = [{"allOf": b.properties[name]} if name in b.properties else True for b in objects]
    merged = {name: [{"anyOf": schemas}] if len(schemas) > 1 else schemas for name, schemas in properties.items()}
    required = set.intersection(*(b.required for b in objects)) if objects else set()
    arrays = [b for b in branches if b.items]
    items = arrays[0].items if len(arrays) == 1 else [{"anyOf": [{"allOf": b.items} for b in arrays]}] if arrays else []
    return Node(types, any(b.nullable for b in branches), merged, required, items)


def members(schema: Any, document: Mapping[str, Any], root: str, depth: int = 0) -> dict[str, Member]:
    """Every path below `root` (itself included) with its member; a schema that constrains nothing stops there."""
    node = node_of(schema, document)
    found = {root: Member(node.types, node.nullable, True)}
    if node.types == ANY or depth > _MAX_DEPTH:
        return found
    for name, schemas in node.properties.items():
        if not node_of({"allOf": schemas}, document).types and name not in node.required:
            continue  # a member the schema forbids (`false`) is no member
        below = members({"allOf": schemas}, document, f"{root}.{name}", depth + 1)
        top = below[f"{root}.{name}"]
        below[f"{root}.{name}"] = Member(top.types, top.nullable, name in node.required)
        found.update(below)
    if node.items:
        found.update(members({"allOf": node.items}, document, f"{root}[]", depth + 1))
    return found
