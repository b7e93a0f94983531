"""The committed exports match the sources, and each is a valid document of its kind."""

from __future__ import annotations

import json

import jsonschema
import pytest
from csi_conformance.schema import SCHEMA_DIR, Contract
from csi_conformance.schema.export import EXPORTS, render, to_jsonschema, to_openapi, to_openrpc
from openapi_spec_validator import validate as validate_openapi
from referencing import Registry, Resource

from .test_contract import SPEC_TABLE


@pytest.mark.parametrize("fmt", list(EXPORTS))
def test_committed_export_has_not_drifted(contract: Contract, fmt: str) -> None:
    committed = (SCHEMA_DIR / "dist" / EXPORTS[fmt][0]).read_text(encoding="utf-8")
    stale = "schema/dist is stale: run `csi schema export --format all --dir schema/dist`"
    assert committed == render(contract, fmt), stale


def test_render_is_byte_stable(contract: Contract) -> None:
    assert render(contract, "openapi") == render(Contract(), "openapi")


def test_openapi_is_valid_and_complete(contract: Contract) -> None:
    document = to_openapi(contract)
    validate_openapi(document)
    assert document["info"]["version"] == "0.50.0"
    assert set(document["paths"]) == {f"/{name}" for name in SPEC_TABLE}
    scheme = document["components"]["securitySchemes"]["apiKey"]
    assert (scheme["type"], scheme["in"], scheme["name"]) == ("apiKey", "query", "api-key")


def test_openrpc_lists_every_method(contract: Contract) -> None:
    document = to_openrpc(contract)
    assert [m["name"] for m in document["methods"]] == SPEC_TABLE
    refs = json.dumps(document)
    schemas = document["components"]["schemas"]
    for name in {ref.split("/")[-1] for ref in _refs(document)}:
        assert name in schemas, name
    assert "#/$defs/" not in refs


def _refs(node):
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref":
                yield value
            else:
                yield from _refs(value)
    elif isinstance(node, list):
        for item in node:
            yield from _refs(item)


def _bundle_validator(contract: Contract, definition: str) -> jsonschema.Draft202012Validator:
    """A validator built by the reference `jsonschema` library, independent of the kit's own."""
    bundle = to_jsonschema(contract)
    jsonschema.Draft202012Validator.check_schema(bundle)
    registry = Registry().with_resource(bundle["$id"], Resource.from_contents(bundle))
    return jsonschema.Draft202012Validator({"$ref": f"{bundle['$id']}#/$defs/{definition}"}, registry=registry)


def test_jsonschema_export_validates_every_example_answer(contract: Contract) -> None:
    for method in contract.methods.values():
        validator = _bundle_validator(contract, f"{method.name}.result")
        for example in method.examples:
            errors = [e.message for e in validator.iter_errors(example.result)]
            assert errors == [], (method.name, example.name)


def test_jsonschema_export_rejects_a_broken_answer(contract: Contract) -> None:
    validator = _bundle_validator(contract, "getCompressedAccount.result")
    example = contract.method("getCompressedAccount").examples[0].result
    assert not validator.is_valid({"value": example["value"]})
