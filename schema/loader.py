"""Read the YAML sources of schema/ into model values, strictly.

A malformed file stops loading with a `ContractError` that names the file and the member:
a contract that silently drops a rule would certify servers against less than the spec.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml
from csi_conformance.groundwork.errors import ContractError
from csi_conformance.schema.apis import DEFAULT_API, MANIFEST
from csi_conformance.schema.model import (
    Ambiguity,
    Clause,
    Deprecation,
    ErrorRule,
    Example,
    Limit,
    Method,
    Pagination,
    Reading,
)
from csi_conformance.schema.validation import Validator

__all__ = ["Sources", "load_sources"]

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def read_yaml(path: Path) -> Any:
    try:
        return yaml.load(path.read_text(encoding="utf-8"), Loader=_Loader)
    except (OSError, yaml.YAMLError) as exc:
        raise ContractError(f"{path}: cannot read: {exc}") from exc


class Sources:
    """The parsed sources: clauses, ambiguities, methods, and every `$defs` entry by name."""

    def __init__(self, directory: Path, manifest: dict | None = None) -> None:
        self.directory = directory
        self.manifest = manifest
        """The manifest of a contract that extends another; None for the spec's."""
        self.base: Sources | None = None
        self.meta_dir = directory / "meta"
        self.clauses: dict[str, Clause] = {}
        self.ambiguities: dict[str, Ambiguity] = {}
        self.methods: dict[str, Method] = {}
        self.defs: dict[str, Any] = {}
        self.origin: dict[str, str] = {}  # def name -> file it came from, for error messages

    def add_def(self, name: str, schema: Any, origin: str) -> None:
        if name in self.defs:
            raise ContractError(f"{origin}: definition {name!r} already defined in {self.origin[name]}")
        self.defs[name] = schema
        self.origin[name] = origin


def load_sources(directory: Path) -> Sources:
    """Load and cross-check every source file below `directory`: the spec's contract, or one that extends
    another (a folder with a manifest, `api.yaml`), read on top of the contract it names."""
    manifest = _manifest(directory)
    if manifest is None:
        sources = Sources(directory)
        _load_clauses(sources, directory / "clauses.yaml")
        for name in ("components.yaml", "envelope.yaml"):
            _load_defs(sources, directory / name)
        _load_ambiguities(sources, directory / "ambiguities.yaml")
        meta_dir = directory / "meta"
    else:
        sources = _extended(directory, manifest)
        _load_clauses(sources, directory / "clauses.yaml", practice=True)
        _load_defs(sources, directory / "components.yaml")
        meta_dir = sources.meta_dir
    _load_methods(sources, directory / "methods", meta_dir)
    _check_clauses(sources)
    _check_refs(sources)
    return sources


def _load_defs(sources: Sources, path: Path) -> None:
    for key, schema in (read_yaml(path) or {}).get("$defs", {}).items():
        sources.add_def(key, schema, path.name)


def _manifest(directory: Path) -> dict | None:
    """The manifest of a contract that extends another; None for the spec's contract (no manifest)."""
    path = directory / MANIFEST
    if not path.is_file():
        return None
    data = read_yaml(path)
    meta_dir = (directory / str((data or {}).get("extends", {}).get("path", ".."))).resolve() / "meta"
    _check_shape(Validator(read_yaml(meta_dir / "manifest.yaml")), data, path)
    if data["name"] != directory.name:
        raise ContractError(f"{path}: name {data['name']!r} differs from the folder's name {directory.name!r}")
    return data


def _extended(directory: Path, manifest: dict) -> Sources:
    """A contract's sources that start as a copy of the contract it extends."""
    extends = manifest["extends"]
    base_dir = (directory / extends["path"]).resolve()
    base_manifest = _manifest(base_dir)
    base_name = base_manifest["name"] if base_manifest else DEFAULT_API
    if base_name != extends["api"]:
        raise ContractError(f"{directory / MANIFEST}: extends {extends['api']!r}, but {base_dir} holds {base_name!r}")
    base = load_sources(base_dir)
    sources = Sources(directory, manifest)
    sources.base = base
    sources.meta_dir = base.meta_dir
    sources.clauses.update(base.clauses)
    sources.ambiguities.update(base.ambiguities)
    sources.methods.update(base.methods)
    sources.defs.update(base.defs)
    sources.origin.update({name: f"{base_dir.name}/{origin}" for name, origin in base.origin.items()})
    return sources


def _load_methods(sources: Sources, methods_dir: Path, meta_dir: Path) -> None:
    method_files = sorted(methods_dir.glob("*.yaml"))
    if not method_files:
        raise ContractError(f"{methods_dir}: no method files")
    raw = {path.stem: (path, read_yaml(path)) for path in method_files}
    meta = Validator(read_yaml(meta_dir / "method.yaml"))
    for stem, (path, data) in raw.items():
        _check_shape(meta, data, path)
        if data["name"] != stem:
            raise ContractError(f"{path}: name {data['name']!r} differs from the file name")
        if stem in sources.methods:
            raise ContractError(f"{path}: method {stem!r} is already in the contract this one extends")
    for stem, (path, data) in sorted(raw.items(), key=lambda item: item[1][1]["row"]):
        target = raw.get(data.get("alias_of", stem))
        if target is None:
            raise ContractError(f"{path}: alias_of names an unknown method {data['alias_of']!r}")
        sources.methods[stem] = _method(data, _alias_body(data, target[1]), path)


def _check_shape(meta: Validator, data: Any, path: Path) -> None:
    problems = meta.violations(data)
    if problems:
        raise ContractError(f"{path}: " + "; ".join(str(p) for p in problems[:5]))


def _load_clauses(sources: Sources, path: Path, *, practice: bool = False) -> None:
    """Read clauses.yaml; with `practice` (a contract that extends the spec's) every clause says its basis and
    its source, and none may restate a clause it inherits."""
    for clause_id, entry in (read_yaml(path) or {}).items():
        if not isinstance(entry, dict) or "text" not in entry or "section" not in entry:
            raise ContractError(f"{path}: clause {clause_id!r} needs section and text")
        if not isinstance(entry.get("quote", ""), str) or set(entry) - CLAUSE_FIELDS:
            raise ContractError(f"{path}: clause {clause_id!r}: members are {sorted(CLAUSE_FIELDS)}, quote a string")
        basis, source = entry.get("basis"), entry.get("source")
        if (basis is not None or practice) and (basis not in BASES or not isinstance(source, str) or not source):
            raise ContractError(f"{path}: clause {clause_id!r} needs basis (one of {list(BASES)}) and a source")
        if str(clause_id) in sources.clauses:
            raise ContractError(f"{path}: clause {clause_id!r} is already in the contract this one extends")
        sources.clauses[str(clause_id)] = Clause(
            str(clause_id), str(entry["section"]), entry["text"], entry.get("excluded"), entry.get("quote"),
            basis, source,
        )


CLAUSE_FIELDS = {"section", "text", "excluded", "quote", "basis", "source"}
BASES = ("observed-practice",)
"""What a clause that is not the spec's rests on."""


def _load_ambiguities(sources: Sources, path: Path) -> None:
    meta = Validator(read_yaml(path.parent / "meta" / "ambiguity.yaml"))
    for amb_id, entry in (read_yaml(path) or {}).items():
        _check_shape(meta, entry, Path(f"{path}#{amb_id}"))
        readings = {
            str(name): Reading(str(name), body["source"], body["schema"])
            for name, body in entry["readings"].items()
        }
        if entry["observed"] not in readings:
            raise ContractError(f"{path}: {amb_id}: observed reading {entry['observed']!r} is not a reading")
        ambiguity = Ambiguity(
            amb_id, entry["clause"], entry["subject"], entry["question"], entry["observed"], readings,
            entry["quote"], tuple(entry.get("also", ())), tuple(entry["checks"]), entry["evidence"],
            None if "governs" not in entry else frozenset(entry["governs"]),
        )
        sources.ambiguities[amb_id] = ambiguity
        for reading in readings.values():
            sources.add_def(f"{ambiguity.definition}.{reading.name}", reading.schema, path.name)


ALIAS_OWN = ("params", "errors")
"""What an alias may state for itself: the spec can give a rule to one name only (4.1-R10)."""


def _alias_body(data: dict, target: dict) -> dict:
    """The body an alias is read from: its target's, with the alias's own `params` and `errors`."""
    if data is target:
        return target
    return {**target, **{key: data[key] for key in ALIAS_OWN if key in data}}


def _method(data: dict, target: dict, path: Path) -> Method:
    """Build a Method; an alias takes params, result and rules from the method it names."""
    body = target
    params = body.get("params", {"kind": "none"})
    if params["kind"] != "none" and "schema" not in params:
        raise ContractError(f"{path}: params of kind {params['kind']} need a schema")
    if body.get("state") and "value" not in body:
        raise ContractError(f"{path}: a state method declares `value`")
    if not body.get("state") and "result" not in body:
        raise ContractError(f"{path}: a method that is not a state query declares `result`")
    pagination = body.get("pagination")
    not_found = body.get("not_found")
    return Method(
        name=data["name"],
        row=data["row"],
        clause=data["clause"],
        summary=data["summary"],
        state=bool(body.get("state")),
        params_kind=params["kind"],
        params_schema=params.get("schema"),
        result_schema=_result_schema(body),
        response_schema=body.get("response"),
        alias_of=data.get("alias_of"),
        pagination=Pagination(
            pagination["items"], pagination["cursor"], pagination["null_cursor_at_end"] == "stated",
            pagination.get("cursor_shown", True), pagination["clause"],
        ) if pagination else None,
        limits=tuple(
            Limit(lim["param"], tuple(lim["counts"]), (lim["clause"], *lim.get("also", ())))
            for lim in body.get("limits", ())
        ),
        errors=tuple(
            ErrorRule(err["kind"], (err["clause"], *err.get("also", ())), err["source"],
                      tuple(err.get("members", ())), err.get("param"))
            for err in body.get("errors", ())
        ),
        filters=tuple((f["param"], f["clause"]) for f in body.get("filters", ())),
        deprecated=tuple(Deprecation(d["param"], d["replacement"], d["clause"]) for d in body.get("deprecated", ())),
        not_found=(not_found["clause"], not_found["value"]) if not_found else None,
        observed=body.get("observed", {}),
        examples=tuple(Example(e["name"], e.get("params"), e["result"]) for e in data.get("examples", ())),
        keys=_keys(params, path),
    )


def _keys(params: dict, path: Path) -> dict[str, str]:
    """`params.keys`, each naming a member of the params schema."""
    keys = dict(params.get("keys", {}))
    unknown = sorted(set(keys) - set((params.get("schema") or {}).get("properties", {})))
    if unknown:
        raise ContractError(f"{path}: params.keys names {unknown}, not members of the params schema")
    return keys


def _result_schema(body: dict) -> Any:
    if not body.get("state"):
        return body["result"]
    return {"allOf": [{"$ref": "#/$defs/StateResult"}], "properties": {"value": body["value"]}}


def _walk(node: Any) -> Iterator[tuple[str, Any]]:
    if isinstance(node, dict):
        for key, value in node.items():
            yield key, value
            yield from _walk(value)
    elif isinstance(node, list):
        for item in node:
            yield from _walk(item)


def _check_clauses(sources: Sources) -> None:
    known = sources.clauses
    used: list[tuple[str, str]] = []
    for name, schema in sources.defs.items():
        used += [(sources.origin[name], v) for k, v in _walk(schema) if k == "x-clause"]
    for amb in sources.ambiguities.values():
        used += [("ambiguities.yaml", clause_id) for clause_id in amb.clauses]
    for method in sources.methods.values():
        where = f"methods/{method.name}.yaml"
        ids = [method.clause, *(c for lim in method.limits for c in lim.clauses),
               *(c for err in method.errors for c in err.clauses), *(c for _, c in method.filters),
               *(d.clause for d in method.deprecated)]
        ids += [method.pagination.clause] if method.pagination else []
        ids += [method.not_found[0]] if method.not_found else []
        for schema in (method.params_schema, method.result_schema):
            ids += [v for k, v in _walk(schema) if k == "x-clause"]
        used += [(where, clause_id) for clause_id in ids]
    for where, clause_id in used:
        if clause_id not in known:
            raise ContractError(f"{where}: unknown clause id {clause_id!r} (see clauses.yaml)")


def _check_refs(sources: Sources) -> None:
    names = set(sources.defs) | {a.definition for a in sources.ambiguities.values()}
    for method in sources.methods.values():
        names |= {f"{method.name}.{part}" for part in ("params", "result", "response", "request")}
    schemas = [(sources.origin[n], s) for n, s in sources.defs.items()]
    schemas += [(f"methods/{m.name}.yaml", [m.params_schema, m.result_schema, m.response_schema])
                for m in sources.methods.values()]
    for where, schema in schemas:
        for key, value in _walk(schema):
            if key == "$ref" and (not value.startswith("#/$defs/") or value[8:] not in names):
                raise ContractError(f"{where}: $ref {value!r} names no definition")
