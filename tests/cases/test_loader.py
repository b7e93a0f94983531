"""The loader refuses every malformed file with its path and line, and writes cases back byte for byte."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from csi_conformance.cases import CASES_DIR
from csi_conformance.cases.loader import load_cases, parse_case, write_case
from csi_conformance.groundwork.errors import ConfigError

GOOD_HEADER = "// description: a slot\n// clauses: 4.2-M19\n// mode: exact\n"
GOOD_REQUEST = '>> {"jsonrpc":"2.0","id":"x","method":"getIndexerSlot"}\n'
GOOD_ANSWER = '<< {"jsonrpc":"2.0","id":"x","result":1010}\n'

MALFORMED = {
    # name: (file text, line named in the error, words of the message)
    "free-comment": ("// just a comment\n" + GOOD_HEADER + GOOD_REQUEST, 1, "// key: value"),
    "unknown-key": ("// speconly: true\n" + GOOD_HEADER + GOOD_REQUEST, 1, "unknown header key"),
    "duplicate-key": (GOOD_HEADER + "// mode: schema\n" + GOOD_REQUEST, 4, "given twice"),
    "empty-value": ("// description: \n// clauses: 4.2-M19\n// mode: exact\n" + GOOD_REQUEST, 1, "// key: value"),
    "blank-line": (GOOD_HEADER + "\n" + GOOD_REQUEST, 4, "expected"),
    "stray-line": (GOOD_HEADER + GOOD_REQUEST + "hello\n", 5, "expected"),
    "no-space-after-marker": (GOOD_HEADER + '>>{"jsonrpc":"2.0","id":"x","method":"getIndexerSlot"}\n', 4, "expected"),
    "header-after-request": (GOOD_HEADER + GOOD_REQUEST + "// scenario: empty\n", 5, "after the request"),
    "two-requests": (GOOD_HEADER + GOOD_REQUEST + GOOD_REQUEST, 5, "second `>>`"),
    "answer-first": (GOOD_HEADER + GOOD_ANSWER + GOOD_REQUEST, 4, "before the `>>`"),
    "two-answers": (GOOD_HEADER + GOOD_REQUEST + GOOD_ANSWER + GOOD_ANSWER, 6, "second `<<`"),
    "no-request": (GOOD_HEADER, 3, "no `>>`"),
    "request-not-json": (GOOD_HEADER + '>> {"jsonrpc": \n', 4, "not one JSON document"),
    "two-documents": (GOOD_HEADER + ">> {} {}\n", 4, "not one JSON document"),
    "answer-not-object": (GOOD_HEADER + GOOD_REQUEST + "<< null\n", 5, "not a JSON object"),
    "request-not-object": (GOOD_HEADER + ">> [1]\n", 4, "not a JSON object"),
    "missing-mode": ("// description: a slot\n// clauses: 4.2-M19\n" + GOOD_REQUEST, 3, "missing header `// mode"),
    "unknown-clause": (GOOD_HEADER.replace("4.2-M19", "4.2-M19, 99-X1") + GOOD_REQUEST, 2, "unknown clause"),
    "empty-clause": (GOOD_HEADER.replace("4.2-M19", "4.2-M19,") + GOOD_REQUEST, 2, "empty clause"),
    "bad-mode": (GOOD_HEADER.replace("exact", "fuzzy") + GOOD_REQUEST, 3, "expected exact, schema"),
    "bare-invariant": (GOOD_HEADER.replace("exact", "invariant") + GOOD_REQUEST, 3, "expected exact, schema"),
    "unknown-invariant": (GOOD_HEADER.replace("exact", "invariant:nope") + GOOD_REQUEST, 3, "unknown invariant"),
    "unknown-scenario": (GOOD_HEADER + "// scenario: mainnet\n" + GOOD_REQUEST, 4, "not a bundled scenario"),
    "unknown-ambiguity": (GOOD_HEADER + "// ambiguity: colour\n" + GOOD_REQUEST, 4, "unknown ambiguity"),
    "other-method": (GOOD_HEADER + GOOD_REQUEST.replace("getIndexerSlot", "getIndexerHealth"), 4, "not the folder's"),
    "crlf": (GOOD_HEADER.replace("\n", "\r\n") + GOOD_REQUEST, 1, "carriage return"),
    "notification": (GOOD_HEADER + '>> {"jsonrpc":"2.0","method":"getIndexerSlot"}\n', 4, "no id"),
}


def _write(tmp_path: Path, text: str, folder: str = "getIndexerSlot") -> Path:
    path = tmp_path / folder / "case.io"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_a_good_file_parses(tmp_path: Path) -> None:
    case = parse_case(_write(tmp_path, GOOD_HEADER + GOOD_REQUEST + GOOD_ANSWER))
    assert (case.name, case.method, case.mode, case.scenario, case.invariant) == (
        "getIndexerSlot/case", "getIndexerSlot", "exact", "default", None)
    assert case.clauses == ("4.2-M19",) and case.response["result"] == 1010


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_malformed_files_are_refused_with_file_and_line(tmp_path: Path, name: str) -> None:
    text, line, words = MALFORMED[name]
    path = _write(tmp_path, text)
    with pytest.raises(ConfigError) as caught:
        parse_case(path)
    message = str(caught.value)
    assert message.startswith(f"{path}:{line}: "), message
    assert words in message, message


def test_a_folder_that_is_no_method_is_refused(tmp_path: Path) -> None:
    path = _write(tmp_path, GOOD_HEADER + GOOD_REQUEST.replace("getIndexerSlot", "getSlot"), folder="getSlot")
    with pytest.raises(ConfigError, match=re.escape(f"{path}:4: the folder 'getSlot' is not a method")):
        parse_case(path)


def test_a_broken_file_stops_the_load(tmp_path: Path) -> None:
    _write(tmp_path, GOOD_HEADER + GOOD_REQUEST)
    broken = tmp_path / "getIndexerSlot" / "later.io"
    broken.write_text(GOOD_HEADER + ">> {\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"later\.io:4"):
        load_cases(tmp_path)


def test_integers_stay_exact(tmp_path: Path) -> None:
    answer = '<< {"jsonrpc":"2.0","id":"x","result":18446744073709551617}\n'
    case = parse_case(_write(tmp_path, GOOD_HEADER + GOOD_REQUEST + answer))
    assert case.response["result"] == 2**64 + 1
    assert write_case(case).endswith(answer)


def test_load_cases_filters_by_method_and_refuses_unknown_ones() -> None:
    cases = load_cases(method="getIndexerSlot")
    assert cases and {case.method for case in cases} == {"getIndexerSlot"}
    with pytest.raises(ConfigError, match="unknown method"):
        load_cases(method="getSlot")


@pytest.mark.parametrize("path", sorted(CASES_DIR.glob("*/*.io")), ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_committed_case_writes_back_byte_for_byte(path: Path) -> None:
    assert write_case(parse_case(path)) == path.read_text(encoding="utf-8")
