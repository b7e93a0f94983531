"""`Contract`: the one way code reads the schema.

The reference server validates params with it, the harness checks answers with it, and the
exports are written from it. Nothing else in the kit restates a field list.

Ambiguities are resolved here. Every schema refers to an open point as
`#/$defs/ambiguity.<id>`; a *readings* selection (`{"token-state": ["string"]}`) decides which
of its readings that definition accepts. An ambiguity missing from the selection accepts all
of its readings, which is the spec's own position.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from functools import cache
from pathlib import Path
from typing import Any

from csi_conformance.groundwork.errors import ContractError
from csi_conformance.schema.apis import DEFAULT_API, SCHEMA_DIR, api_directories
from csi_conformance.schema.loader import load_sources
from csi_conformance.schema.model import Ambiguity, Clause, Method
from csi_conformance.schema.shapes import Shape, allows_null, shapes_under
from csi_conformance.schema.validation import Validator

__all__ = ["SCHEMA_DIR", "SPEC_VERSION", "Contract", "Readings"]

SPEC_VERSION = DEFAULT_API

Readings = Mapping[str, Collection[str]]
"""Accepted readings per ambiguity id; an id left out accepts every reading."""


def _ref(name: str) -> dict:
    return {"$ref": f"#/$defs/{name}"}


def _members(node: Any) -> list[tuple[str, Any]]:
    """Every (key, value) pair of a schema node and of the nodes inside it."""
    if isinstance(node, dict):
        return [*node.items(), *(pair for value in node.values() for pair in _members(value))]
    if isinstance(node, list):
        return [pair for item in node for pair in _members(item)]
    return []


def _refs(node: Any) -> list[str]:
    if isinstance(node, dict):
        return [v for k, v in node.items() if k == "$ref"] + [r for v in node.values() for r in _refs(v)]
    if isinstance(node, list):
        return [r for item in node for r in _refs(item)]
    return []


class Contract:
    """The API as data: methods, clauses, ambiguities, and validators built from them."""

    def __init__(self, directory: Path = SCHEMA_DIR) -> None:
        sources = load_sources(directory)
        self.directory = directory
        self.manifest: Mapping[str, Any] = sources.manifest or {}
        """What a contract that extends another says of itself (name, extends, source); empty for the spec's."""
        self.version = self.manifest.get("name", SPEC_VERSION)
        """The contract's name: the spec's version, or the name of the contract that extends it."""
        self.clauses: dict[str, Clause] = sources.clauses
        self.ambiguities: dict[str, Ambiguity] = sources.ambiguities
        self.methods: dict[str, Method] = sources.methods
        self._inherited = frozenset(sources.base.methods) if sources.base else frozenset()
        self._base_defs = {**sources.defs, **self._method_defs()}
        self._validators: dict[tuple[str, tuple], Validator] = {}
        self._reachable: dict[str, tuple[str, ...]] = {}
        self._under: dict[str, frozenset[str]] = {}
        self._pinned: dict[tuple, tuple[Validator, tuple[tuple[str, Validator], ...]]] = {}
        self._shapes: dict[str, tuple[Shape, ...]] = {}

    @classmethod
    @cache
    def default(cls) -> Contract:
        """The contract shipped with the kit, loaded once per process."""
        return cls()

    @classmethod
    @cache
    def for_api(cls, name: str) -> Contract:
        """A contract the kit ships, by name (`0.50.0`, the default; `photon-366a15b`), loaded once per process."""
        if name == SPEC_VERSION:
            return cls.default()
        directories = api_directories()
        if name not in directories:
            raise ContractError(f"unknown API {name!r}: the kit's contracts are {', '.join(directories)}")
        return cls(directories[name])

    @property
    def extends(self) -> str | None:
        """The name of the contract this one extends, None for the spec's."""
        return self.manifest.get("extends", {}).get("api")

    def own_methods(self) -> tuple[str, ...]:
        """The methods this contract adds to the one it extends (all of them for the spec's), in row order."""
        return tuple(name for name in self.methods if name not in self._inherited)

    # -- lookups -----------------------------------------------------------------------
    def method(self, name: str) -> Method:
        try:
            return self.methods[name]
        except KeyError:
            raise ContractError(f"unknown method {name!r}") from None

    def clause(self, clause_id: str) -> Clause:
        try:
            return self.clauses[clause_id]
        except KeyError:
            raise ContractError(f"unknown clause id {clause_id!r}") from None

    def ambiguity(self, ambiguity_id: str) -> Ambiguity:
        try:
            return self.ambiguities[ambiguity_id]
        except KeyError:
            raise ContractError(f"unknown ambiguity {ambiguity_id!r}") from None

    def observed_readings(self) -> dict[str, tuple[str, ...]]:
        """The reading the most used indexer follows on every open point (observed-practice.md)."""
        return {amb.id: (amb.observed,) for amb in self.ambiguities.values()}

    # -- schemas -----------------------------------------------------------------------
    def defs(self, readings: Readings | None = None) -> dict[str, Any]:
        """Every `$defs` entry, each ambiguity resolved to the readings accepted."""
        selected = self._normalise(readings)
        defs = dict(self._base_defs)
        for amb in self.ambiguities.values():
            names = selected.get(amb.id, tuple(amb.readings))
            refs = [_ref(f"{amb.definition}.{name}") for name in names]
            defs[amb.definition] = refs[0] if len(refs) == 1 else {"anyOf": refs}
        return defs

    def schema_for(self, definition: str, readings: Readings | None = None) -> dict:
        """A standalone JSON Schema whose root is one definition, holding only the definitions it reaches: a
        validator compiles and walks a seventh of the whole contract, not all of it (a run compiles a hundred)."""
        defs = self.defs(readings)
        if definition not in defs:
            raise ContractError(f"no definition {definition!r}")
        under = self._definitions_under(definition)
        return {"$schema": "https://json-schema.org/draft/2020-12/schema",
                "$defs": {name: node for name, node in defs.items() if name in under}, **_ref(definition)}

    def validator(self, definition: str, readings: Readings | None = None) -> Validator:
        """A compiled validator for one definition, cached per readings selection."""
        key = (definition, tuple(sorted(self._normalise(readings).items())))
        if key not in self._validators:
            self._validators[key] = Validator(self.schema_for(definition, readings))
        return self._validators[key]

    def params_validator(self, method: str, readings: Readings | None = None) -> Validator:
        return self.validator(f"{self.method(method).name}.params", readings)

    def result_validator(self, method: str, readings: Readings | None = None) -> Validator:
        return self.validator(f"{self.method(method).name}.result", readings)

    def response_validator(self, method: str, readings: Readings | None = None) -> Validator:
        """The whole success body of a method (the JSON-RPC wrapper, or a reading without it)."""
        return self.validator(f"{self.method(method).name}.response", readings)

    def readings_followed(
        self, ambiguity_id: str, instance: Any, definition: str, readings: Readings | None = None
    ) -> tuple[str, ...]:
        """The readings of one ambiguity that `instance` is consistent with, read as `definition`.

        A reading counts as followed when pinning it adds no violation to those the instance
        has anyway, so an unrelated fault elsewhere in an answer does not hide the reading.
        All readings come back when the answer does not touch the point at all.
        """
        whole, pinned = self._reading_validators(ambiguity_id, definition, readings)
        baseline = set() if whole.is_valid(instance) else {str(v) for v in whole.violations(instance)}
        followed = []
        for name, validator in pinned:
            # no violation to start from (the usual answer): followed means valid, no list to build
            if not baseline:
                adds_nothing = validator.is_valid(instance)
            else:
                adds_nothing = {str(v) for v in validator.violations(instance)} <= baseline
            if adds_nothing:
                followed.append(name)
        return tuple(followed)

    def _reading_validators(self, ambiguity_id: str, definition: str, readings: Readings | None
                            ) -> tuple[Validator, tuple[tuple[str, Validator], ...]]:
        """The validator of `definition` under `readings`, and one per reading of the ambiguity pinned: looked up once
        per selection (a run asks this for every answer and every open point it can touch)."""
        key = (ambiguity_id, definition, tuple(sorted((k, tuple(sorted(v))) for k, v in (readings or {}).items())))
        if key not in self._pinned:
            base = dict(self._normalise(readings))
            self._pinned[key] = (self.validator(definition, base), tuple(
                (name, self.validator(definition, {**base, ambiguity_id: [name]}))
                for name in self.ambiguity(ambiguity_id).readings))
        return self._pinned[key]

    def shapes(self, definition: str) -> tuple[Shape, ...]:
        """Every object an instance of `definition` can hold, under every reading: its members, the required
        ones, and so the optional ones (`Shape.optional`)."""
        if definition not in self._shapes:
            self._shapes[definition] = shapes_under(self.defs(), definition)
        return self._shapes[definition]

    def allows_null(self, schema: Any) -> bool:
        """Whether a schema node of the contract accepts `null` (under every reading)."""
        return allows_null(self.defs(), schema)

    def ambiguities_in(self, definition: str) -> tuple[str, ...]:
        """Ids of the ambiguities an instance of `definition` can touch (reachable through `$ref`)."""
        if definition not in self._reachable:
            found = {name[len("ambiguity."):] for name in self._definitions_under(definition)
                     if name.startswith("ambiguity.")}
            self._reachable[definition] = tuple(a for a in self.ambiguities if a in found)
        return self._reachable[definition]

    def carries(self, method: str, definition: str) -> bool:
        """Whether an answer of `method` can hold an instance of `definition` (through `$ref`, under any reading
        of the open points on the way): a check of that definition applies to the method. False for a
        method the contract does not have."""
        if method not in self.methods:
            return False
        return definition in self._definitions_under(f"{method}.result")

    def clauses_in(self, definition: str) -> tuple[str, ...]:
        """The clauses an instance of `definition` can break: every `x-clause` reachable through `$ref`, and
        the clause of each open point on the way (sorted, the spec's silences left out)."""
        found: set[str] = set()
        for name in self._definitions_under(definition):
            if name.startswith("ambiguity.") and name not in self._base_defs:
                found.add(self.ambiguity(name[len("ambiguity."):]).clause)
            else:
                found.update(value for key, value in _members(self._base_defs[name]) if key == "x-clause")
        return tuple(sorted(clause for clause in found if not self.clauses[clause].silent))

    def _definitions_under(self, definition: str) -> frozenset[str]:
        """`definition` and every definition reachable from it through `$ref` (an open point: all its readings)."""
        if definition not in self._under:
            self._under[definition] = frozenset(self._walk_definitions(definition))
        return self._under[definition]

    def _walk_definitions(self, definition: str) -> set[str]:
        seen: set[str] = set()
        stack = [definition]
        while stack:
            name = stack.pop()
            if name in seen or (name not in self._base_defs and not name.startswith("ambiguity.")):
                continue
            seen.add(name)
            if name in self._base_defs:
                node = self._base_defs[name]
            else:  # an ambiguity point: all of its readings
                amb = self.ambiguity(name[len("ambiguity."):])
                node = {"anyOf": [_ref(f"{amb.definition}.{r}") for r in amb.readings]}
            stack += [ref[len("#/$defs/"):] for ref in _refs(node)]
        return seen

    # -- internals ---------------------------------------------------------------------
    def _normalise(self, readings: Readings | None) -> dict[str, tuple[str, ...]]:
        out: dict[str, tuple[str, ...]] = {}
        for amb_id, names in (readings or {}).items():
            amb = self.ambiguity(amb_id)
            chosen = tuple(sorted(set(names)))
            unknown = [name for name in chosen if name not in amb.readings]
            if unknown or not chosen:
                raise ContractError(
                    f"ambiguity {amb_id!r}: readings {list(chosen)} not among {list(amb.readings)}"
                )
            if len(chosen) < len(amb.readings):
                out[amb_id] = chosen
        return out

    def _method_defs(self) -> dict[str, Any]:
        """Per method: `.params`, `.result`, `.response` and `.request` definitions."""
        defs: dict[str, Any] = {}
        for method in self.methods.values():
            name = method.name
            defs[f"{name}.params"] = method.params_schema if method.params_kind != "none" else _NO_PARAMS
            defs[f"{name}.result"] = method.result_schema
            defs[f"{name}.response"] = method.response_schema or {
                "allOf": [_ref("Success")],
                "properties": {"result": _ref(f"{name}.result")},
            }
            request: dict[str, Any] = {
                "allOf": [_ref("Request")],
                "properties": {"method": {"const": name}, "params": _ref(f"{name}.params")},
            }
            if method.params_kind != "none":
                request["required"] = ["params"]
            defs[f"{name}.request"] = request
        return defs


_NO_PARAMS = {
    "description": "the method takes no params (§4.1): absent, [] or {} are all read as none "
    "(JSON-RPC 2.0: params, when present, is an array or an object)",
    "x-clause": "4.1-R5",
    "anyOf": [{"type": "array", "maxItems": 0}, {"type": "object", "maxProperties": 0}],
}
