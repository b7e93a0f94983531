"""Members the contract marks for the differential: proofs, and members no reference can tell.

The contract says, as data, which definitions are Groth16 proofs (`x-proof: groth16`: the spec's
`compressed-proof-shape` readings, the second contract's `CompressedProof`) and which members no second
server can be expected to repeat (`x-not-compared: <why>`). A member is marked when its schema is the mark,
or points only at marked definitions (through `$ref`, `anyOf` and `oneOf`, `null` aside). The normalizers
read these names here, so a new method answering a proof anywhere, however nested, is normalised without
naming the method.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import Any

from csi_conformance.schema import Contract

__all__ = ["NOT_COMPARED", "PROOF", "marked_members", "proof_members", "properties_pointing_at",
           "uncompared_members"]

PROOF = "x-proof"
"""The mark of a definition that is a zero-knowledge proof (its value names the system: `groth16`)."""
NOT_COMPARED = "x-not-compared"
"""The mark of a member no reference can be expected to repeat; its value says why."""
_BRANCHES = ("anyOf", "oneOf")


def proof_members(contract: Contract) -> frozenset[str]:
    """The members whose value is a proof: a prover's bytes, which differ at every proving."""
    return marked_members(contract, PROOF)


def uncompared_members(contract: Contract) -> frozenset[str]:
    """The members the contract says a reference cannot be expected to repeat."""
    return marked_members(contract, NOT_COMPARED)


@functools.cache
def marked_members(contract: Contract, mark: str) -> frozenset[str]:
    """Every member name whose schema carries `mark` or points only at definitions that do."""
    defs = contract.defs()
    marked = {name for name, node in defs.items() if isinstance(node, dict) and mark in node}
    grown = True
    while grown:
        more = {name for name, node in defs.items() if name not in marked and _points_only_at(node, marked)}
        marked |= more
        grown = bool(more)
    return frozenset(key for node in _nodes(defs) for key, schema in _properties(node)
                     if isinstance(schema, dict) and (mark in schema or _points_only_at(schema, marked)))


@functools.cache
def properties_pointing_at(contract: Contract) -> dict[str, frozenset[str]]:
    """Definition -> the member names whose schema is that definition (or it or null)."""
    found: dict[str, set[str]] = {}
    for node in _nodes(contract.defs()):
        for key, schema in _properties(node):
            for name in _targets(schema) or ():
                found.setdefault(name, set()).add(key)
    return {name: frozenset(keys) for name, keys in found.items()}


def _targets(node: Any) -> list[str] | None:
    """The definitions a schema node stands for: its `$ref`, or the refs of its branches; None for anything else."""
    if not isinstance(node, dict):
        return None
    if isinstance(node.get("$ref"), str):
        return [node["$ref"].removeprefix("#/$defs/")]
    for key in _BRANCHES:
        branches = node.get(key)
        if isinstance(branches, list):
            refs = [_targets(b) for b in branches if not (isinstance(b, dict) and b.get("type") == "null")]
            if refs and all(ref is not None for ref in refs):
                return [name for ref in refs for name in ref]
    return None


def _points_only_at(node: Any, marked: set[str]) -> bool:
    targets = _targets(node)
    return bool(targets) and all(name in marked for name in targets)


def _properties(node: Any) -> Iterator[tuple[str, Any]]:
    properties = node.get("properties") if isinstance(node, dict) else None
    return iter(properties.items()) if isinstance(properties, dict) else iter(())


def _nodes(node: Any) -> Iterator[Any]:
    """Every schema node below `node`, itself included."""
    yield node
    children = node.values() if isinstance(node, dict) else node if isinstance(node, list) else ()
    for child in children:
        if isinstance(child, dict | list):
            yield from _nodes(child)
