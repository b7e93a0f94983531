"""Compiled validators over the contract's schemas.

jsonschema-rs does the validating (far faster than the pure-Python `jsonschema`, which matters
when every answer of a certification run is checked; benchmarks/README.md). Two rules
JSON Schema cannot state on its own are added here, at compile time, so that the YAML sources
and the exports stay plain JSON Schema:

- `x-csi-integer`: JSON Schema counts 1.0 as an integer; this API's integers never come as
  floats, so every `type: integer` node also rejects a Python float.
- formats `base58-32` and `base58-64`: the string decodes from base58 to exactly that many bytes.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import jsonschema_rs
from csi_conformance.groundwork.base58 import b58decode

__all__ = ["Validator", "Violation", "decoded_length"]

INTEGER_KEYWORD = "x-csi-integer"


@dataclass(frozen=True)
class Violation:
    """One way an instance breaks a schema: where, what rule, and a readable message."""

    path: str
    schema_path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path or '/'}: {self.message}"


@lru_cache(maxsize=65536)
def decoded_length(text: str) -> int | None:
    """Number of bytes a base58 string decodes to, or None when it is not base58.

    The kit's one decoder (`groundwork.base58`) decides, so the contract's formats and the ledger agree.
    """
    try:
        return len(b58decode(text))
    except ValueError:
        return None


def _base58_of(size: int):
    def check(text: str) -> bool:
        return decoded_length(text) == size

    return check


FORMATS = {"base58-32": _base58_of(32), "base58-64": _base58_of(64)}


class _ExactInteger:
    """The `x-csi-integer` keyword: a float is never an integer here, even 1.0."""

    def __init__(self, parent_schema: dict, value: Any, schema_path: list) -> None:
        self.enabled = bool(value)

    def validate(self, instance: Any) -> None:
        if self.enabled and isinstance(instance, float):
            raise ValueError(f"{instance!r} is a float; an integer is required (no float escape)")


def _mark_integers(node: Any) -> Any:
    """Return a copy of a schema in which every `type: integer` node carries `x-csi-integer`."""
    if isinstance(node, dict):
        out = {key: _mark_integers(value) for key, value in node.items()}
        kind = node.get("type")
        if kind == "integer" or (isinstance(kind, list) and "integer" in kind):
            out[INTEGER_KEYWORD] = True
        return out
    if isinstance(node, list):
        return [_mark_integers(item) for item in node]
    return node


def _pointer(parts: Any) -> str:
    return "".join(f"/{part}" for part in parts)


class Validator:
    """A compiled schema: `is_valid`, and `violations` that say where and why."""

    def __init__(self, schema: dict) -> None:
        self.schema = schema
        self._compiled = jsonschema_rs.validator_for(
            _mark_integers(schema),  # a copy: the caller's schema is left as it is
            formats=FORMATS,
            validate_formats=True,
            keywords={INTEGER_KEYWORD: _ExactInteger},
        )

    def is_valid(self, instance: Any) -> bool:
        return self._compiled.is_valid(instance)

    def violations(self, instance: Any) -> list[Violation]:
        """Every violation, most specific first as jsonschema-rs reports them; empty when valid."""
        return [
            Violation(_pointer(err.instance_path), _pointer(err.schema_path), err.message)
            for err in self._compiled.iter_errors(instance)
        ]
