"""values: what a target sent becomes printable without losing exact integers."""

from __future__ import annotations

import json

from csi_conformance.groundwork import jsonio
from csi_conformance.harness.report.values import TOO_DEEP, jsonable, one_line, pretty_json, pretty_json_head, xml_text


def test_pretty_json_reads_back_exactly() -> None:
    value = {"a": [1, 2**200, {"b": None, "c": [], "d": {}}], "e": "x\"y", "f": -0.5, "g": True}
    text = pretty_json(value)
    assert jsonio.loads(text) == value
    assert text == json.dumps(value, indent=2, ensure_ascii=False)
    assert pretty_json(("é", {1, 2}, b"z")) == '[\n  "é",\n  [\n    1,\n    2\n  ],\n  "z"\n]'


def test_pretty_json_head_stops_at_the_limit() -> None:
    value = {"items": list(range(10**6))}
    head, cut = pretty_json_head(value, 100)
    assert cut and head == pretty_json({"items": list(range(40))})[:100]
    assert pretty_json_head({"a": 1}, 100) == ('{\n  "a": 1\n}', False)


def test_jsonable_replaces_only_what_cannot_be_written() -> None:
    assert jsonable({"k": ("\ud800ok", b"\xffa", {3, 1}, float("-inf"), 2**90)}) == \
        {"k": ["\ufffdok", "\ufffda", [1, 3], "-inf", 2**90]}
    deep: list = []
    for _ in range(300):
        deep = [deep]
    cut, depth = jsonable(deep), 0
    while isinstance(cut, list):
        cut, depth = cut[0], depth + 1
    assert (cut, depth) == (TOO_DEEP, jsonio.MAX_DEPTH)
    assert jsonio.loads(jsonio.dumps(jsonable(deep))) == jsonable(deep)
    assert pretty_json(deep).count("[") == jsonio.MAX_DEPTH and TOO_DEEP in pretty_json(deep)


def test_text_cleaners() -> None:
    assert xml_text("a\x00b\x1bc\td\ud800") == "a\ufffdb\ufffdc\td\ufffd"
    assert one_line("Expected: a\r\nReceived: \x1b[2J\x07") == "Expected: a | Received: \\x1b[2J\\x07"
