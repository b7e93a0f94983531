"""Write the contract as a bundled JSON Schema, an OpenAPI 3.1 document and an OpenRPC document.

All three are views of the same `Contract` with every reading of every ambiguity accepted
(the spec's own position); each ambiguity carries its readings in `x-ambiguity` so that a
reader of the export sees what is open. The committed copies under schema/dist/ are checked
for drift by the tests.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from csi_conformance.schema.contract import Contract
from csi_conformance.schema.model import Method

__all__ = ["EXPORTS", "render", "to_jsonschema", "to_openapi", "to_openrpc"]

TITLE = "Compressed-State Indexer JSON-RPC API"
JSON_SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"


def _annotated_defs(contract: Contract) -> dict[str, Any]:
    defs = contract.defs()
    for amb in contract.ambiguities.values():
        defs[amb.definition] = {
            **defs[amb.definition],
            "x-ambiguity": {
                "id": amb.id,
                "clause": amb.clause,
                "subject": amb.subject,
                "question": amb.question,
                "observed": amb.observed,
                "readings": {r.name: r.source for r in amb.readings.values()},
            },
        }
    return defs


def _rewrite_refs(node: Any, prefix: str) -> Any:
    if isinstance(node, dict):
        return {
            key: (prefix + value[len("#/$defs/"):] if key == "$ref" else _rewrite_refs(value, prefix))
            for key, value in node.items()
        }
    if isinstance(node, list):
        return [_rewrite_refs(item, prefix) for item in node]
    return node


def to_jsonschema(contract: Contract) -> dict[str, Any]:
    """One JSON Schema 2020-12 document; validate against `#/$defs/<method>.result` and friends."""
    return {
        "$schema": JSON_SCHEMA_DIALECT,
        "$id": f"urn:csi-conformance:indexer-api:{contract.version}",
        "title": TITLE,
        "description": "Params, results and errors of every method; definitions per method are "
        "named <method>.params, <method>.result, <method>.response and <method>.request.",
        "x-spec-version": contract.version,
        "$defs": _annotated_defs(contract),
    }


def _openapi_operation(method: Method) -> dict[str, Any]:
    def ref(name: str) -> dict:
        return {"$ref": f"#/components/schemas/{name}"}

    error_body = {"application/json": {"schema": ref("ErrorBody")}}
    operation: dict[str, Any] = {
        "operationId": method.name,
        "summary": method.summary,
        "description": f"Spec §4.2 #{method.row} ({method.clause}). Errors come as JSON-RPC error "
        "objects; their HTTP status is not shown by the spec (ambiguity error-http-status).",
        "requestBody": {"required": True, "content": {"application/json": {"schema": ref(f"{method.name}.request")}}},
        "responses": {
            "200": {
                "description": "A JSON-RPC success or error object",
                "content": {"application/json": {"schema": {"anyOf": [
                    ref(f"{method.name}.response"), ref("Error"),
                    {"type": "array", "description": "the answer to a batch (a JSON array of requests)",
                     "items": {"anyOf": [ref("Success"), ref("Error")]}}]}}},
            },
            "429": {"description": "Rate limit exceeded (§7)", "content": error_body},
            "500": {"description": "Unexpected server condition (§7)", "content": error_body},
        },
        "x-clause": method.clause,
    }
    if method.alias_of:
        operation["x-alias-of"] = method.alias_of
    if any(d.param for d in method.deprecated):
        operation["x-deprecated-params"] = [d.param for d in method.deprecated]
    return operation


def to_openapi(contract: Contract) -> dict[str, Any]:
    """OpenAPI 3.1 with one path `/<method>` per method, the spec's per-operation path form."""
    return {
        "openapi": "3.1.0",
        "jsonSchemaDialect": JSON_SCHEMA_DIALECT,
        "info": {"title": TITLE, "version": contract.version,
                 "description": "Generated from the csi-conformance contract (schema/)."},
        "servers": [{"url": "http://127.0.0.1:8784", "description": "the bundled reference server (csi serve)"}],
        "security": [{"apiKey": []}, {}],
        "paths": {f"/{m.name}": {"post": _openapi_operation(m)} for m in contract.methods.values()},
        "components": {
            "schemas": _rewrite_refs(_annotated_defs(contract), "#/components/schemas/"),
            "securitySchemes": {"apiKey": {"type": "apiKey", "in": "query", "name": "api-key",
                                           "description": "§5: the API key travels in the query string"}},
        },
    }


def _openrpc_params(method: Method) -> tuple[str, list[dict[str, Any]]]:
    ref_prefix = "#/components/schemas/"
    if method.params_kind == "none":
        return "either", []
    if method.params_kind == "array":
        schema = _rewrite_refs(method.params_schema, ref_prefix)
        return "by-position", [{"name": "addresses", "required": True, "schema": schema["items"],
                                "description": "each positional param is one address (params is an array)"}]
    props = method.params_schema.get("properties", {})
    required = set(method.required_params)
    return "by-name", [
        {"name": name, "required": name in required, "schema": _rewrite_refs(schema, ref_prefix)}
        for name, schema in props.items()
    ]


def to_openrpc(contract: Contract) -> dict[str, Any]:
    """OpenRPC 1.3 document listing every method of §4.2."""
    methods = []
    for method in contract.methods.values():
        structure, params = _openrpc_params(method)
        entry: dict[str, Any] = {
            "name": method.name,
            "summary": method.summary,
            "paramStructure": structure,
            "params": params,
            "result": {"name": "result", "schema": {"$ref": f"#/components/schemas/{method.name}.result"}},
            "x-clause": method.clause,
            "x-params-schema": {"$ref": f"#/components/schemas/{method.name}.params"},
        }
        methods.append(entry)
    return {
        "openrpc": "1.3.2",
        "info": {"title": TITLE, "version": contract.version},
        "methods": methods,
        "components": {"schemas": _rewrite_refs(_annotated_defs(contract), "#/components/schemas/")},
    }


EXPORTS: dict[str, tuple[str, Callable[[Contract], dict[str, Any]]]] = {
    "jsonschema": ("indexer-api.schema.json", to_jsonschema),
    "openapi": ("openapi.json", to_openapi),
    "openrpc": ("openrpc.json", to_openrpc),
}
"""Format name -> (file name under schema/dist/, builder)."""


def render(contract: Contract, fmt: str) -> str:
    """The export as text, byte-for-byte stable so that drift is a plain comparison."""
    return json.dumps(EXPORTS[fmt][1](contract), indent=2, ensure_ascii=False) + "\n"
