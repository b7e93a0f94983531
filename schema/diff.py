"""How an OpenAPI document differs from a contract of the kit: method by method, then member by member.

An implementation's own API description is evidence of what it serves, not the authority: this lists where it
and a contract part (methods only in one; params and result members missing or extra, of another type, nullable
in one only, required in one only), so each difference can be judged.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from csi_conformance.groundwork.errors import CsiError
from csi_conformance.schema.contract import Contract
from csi_conformance.schema.shape_tree import ANY, Member, members, node_of, resolve

__all__ = ["Difference", "diff_document", "read_document"]

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@dataclass(frozen=True)
class Difference:
    """One way the document and the contract part; `method` is None for the list of methods itself."""

    method: str | None
    path: str
    text: str

    def __str__(self) -> str:
        where = f"{self.method}: {self.path}: " if self.method else ""
        return where + self.text


def read_document(path: Path) -> dict[str, Any]:
    """An OpenAPI document (YAML or JSON) with its `paths`."""
    try:
        document = yaml.load(path.read_text(encoding="utf-8"), Loader=_Loader)
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        raise CsiError(f"cannot read {path}: {exc}") from exc
    if not isinstance(document, dict) or not isinstance(document.get("paths"), dict):
        raise CsiError(f"{path}: not an OpenAPI document (no `paths`)")
    return document


def _operations(document: Mapping[str, Any]) -> dict[str, tuple[Any, Any]]:
    """Method name -> (its params schema or None, its result schema or None), from each path's POST."""
    found: dict[str, tuple[Any, Any]] = {}
    for path, item in document["paths"].items():
        post = (item or {}).get("post") or {}
        request = (((post.get("requestBody") or {}).get("content") or {}).get("application/json") or {}).get("schema")
        answer = ((((post.get("responses") or {}).get("200") or {}).get("content") or {})
                  .get("application/json") or {}).get("schema")
        request_node = node_of(request, document) if request is not None else None
        method = path.strip("/")
        if request_node is not None and "method" in request_node.properties:
            method = _only_value(request_node.properties["method"], document) or method
        params = request_node.properties.get("params") if request_node else None
        found[method] = ({"allOf": params} if params else None, _result_of(answer, document))
    return found


def _result_of(response: Any, document: Mapping[str, Any]) -> Any:
    """The schema of `result` in a success body's schema, None when it has none."""
    result = node_of(response, document).properties.get("result") if response is not None else None
    return {"allOf": result} if result else None


def _only_value(schemas: list[Any], document: Mapping[str, Any]) -> str | None:
    """The method name a request schema pins (`const` or a one-value `enum`), None when it pins none."""
    for schema in schemas:
        while isinstance(schema, Mapping) and "$ref" in schema:
            schema = resolve(document, schema["$ref"])
        if isinstance(schema, Mapping) and "const" in schema:
            return str(schema["const"])
        if isinstance(schema, Mapping) and len(schema.get("enum", ())) == 1:
            return str(schema["enum"][0])
    return None


def diff_document(document: Mapping[str, Any], contract: Contract) -> list[Difference]:
    """Every difference between the document's methods and the contract's, in a stable order."""
    operations = _operations(document)
    only_document = sorted(set(operations) - set(contract.methods))
    only_contract = sorted(set(contract.methods) - set(operations))
    out = [Difference(None, "", f"only in the document: {name}") for name in only_document]
    out += [Difference(None, "", f"only in the contract {contract.version}: {name}") for name in only_contract]
    defs = {"$defs": contract.defs()}
    for name in sorted(set(operations) & set(contract.methods)):
        params, result = operations[name]
        method = contract.method(name)
        if method.params_kind == "none":
            if params is not None and not _takes_nothing(params, document):
                out.append(Difference(name, "params", "members in the document, none in the contract"))
        else:
            out += _compare(name, "params", params, document, {"$ref": f"#/$defs/{name}.params"}, defs)
        ours = _result_of({"$ref": f"#/$defs/{name}.response"}, defs)
        out += _compare(name, "result", result, document, ours, defs)
    return out


def _takes_nothing(params: Any, document: Mapping[str, Any]) -> bool:
    """Whether a params schema names no member and no item: the document's way of saying "no params"."""
    node = node_of(params, document)
    return not node.properties and not node.items


def _compare(method: str, root: str, theirs: Any, document: Mapping[str, Any], ours: Any,
             defs: Mapping[str, Any]) -> list[Difference]:
    if theirs is None and ours is None:
        return []
    if theirs is None or ours is None:
        side = "the contract" if theirs is None else "the document"
        return [Difference(method, root, f"only in {side}")]
    doc_members, our_members = members(theirs, document, root), members(ours, defs, root)
    out: list[Difference] = []
    for path in sorted(set(doc_members) | set(our_members), key=_order):
        if _under_reported(path, out, method) or _left_free(path, doc_members) or _left_free(path, our_members):
            continue
        if path not in our_members:
            out.append(Difference(method, path, "only in the document"))
        elif path not in doc_members:
            out.append(Difference(method, path, "only in the contract"))
        else:
            out += _member_differences(method, path, doc_members[path], our_members[path])
    return out


def _order(path: str) -> tuple[str, ...]:
    return tuple(path.replace("[]", ".[]").split("."))


def _under_reported(path: str, found: list[Difference], method: str) -> bool:
    """Whether an ancestor of `path` is already reported as only in one side (its members would repeat it)."""
    return any(d.method == method and d.text.startswith("only in") and path.startswith((d.path + ".", d.path + "[]"))
               for d in found)


def _left_free(path: str, found: dict[str, Member]) -> bool:
    """Whether one side leaves an ancestor of `path` free (any value): it then says nothing of the members below."""
    cuts = [i for i, ch in enumerate(path) if ch in ".["]
    return any(path[:i] in found and found[path[:i]].types == ANY for i in cuts)


def _member_differences(method: str, path: str, theirs: Member, ours: Member) -> list[Difference]:
    out = []
    if ANY not in (theirs.types, ours.types) and theirs.types != ours.types:
        out.append(Difference(method, path, f"type {theirs.type_text()} in the document, "
                                            f"{ours.type_text()} in the contract"))
    if theirs.nullable != ours.nullable and ANY not in (theirs.types, ours.types):
        side = "the contract" if ours.nullable else "the document"
        out.append(Difference(method, path, f"nullable in {side} only"))
    if theirs.required != ours.required:
        side = "the contract" if ours.required else "the document"
        out.append(Difference(method, path, f"required in {side} only"))
    return out
