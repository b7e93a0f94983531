"""How findings name the wrong member: JSON paths built from parts and from schema pointers."""

from __future__ import annotations

import pytest
from csi_conformance.harness.core.paths import BODY, from_pointer, member, result_value


@pytest.mark.parametrize(("parts", "path"), [
    ((), "$"),
    (("result", "value", "items", 3, "leafIndex"), "$.result.value.items[3].leafIndex"),
    (("result", "value", "items", "*", "hash"), "$.result.value.items[*].hash"),
    (("odd name", "it's"), "$['odd name']['it\\'s']"),
])
def test_member(parts: tuple, path: str) -> None:
    assert member(*parts) == path


@pytest.mark.parametrize(("pointer", "path"), [
    ("", BODY),
    ("/", BODY),
    ("/result/value/0/hash", "$.result.value[0].hash"),
    ("/error/message", "$.error.message"),
    ("/result/a~1b/c~0d", "$.result['a/b']['c~d']"),
])
def test_from_pointer(pointer: str, path: str) -> None:
    assert from_pointer(pointer) == path


def test_result_value() -> None:
    assert result_value("roots", 5) == "$.result.value.roots[5]"
