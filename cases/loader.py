"""Read and write golden case files (`cases/<method>/<name>.io`, format in cases/model.py).

The loader is strict, like hive's rpc-compat loader: `// key: value` header lines, then one
`>> ` request line and at most one `<< ` answer line, each a single JSON document read with
exact integers. Any other line, an unknown key, clause, ambiguity, invariant or scenario, or a
request for another method than its folder's, is a `ConfigError` naming the file and the line.
A broken file stops the load: a case that silently disappears would be a test that never runs.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from csi_conformance.cases import CASES_DIR
from csi_conformance.cases.invariants import INVARIANTS
from csi_conformance.cases.model import MODES, Case
from csi_conformance.groundwork.errors import ConfigError, JsonError
from csi_conformance.groundwork.jsonio import dumps, loads
from csi_conformance.reference_server.scenarios import bundled_scenarios
from csi_conformance.schema import Contract

__all__ = ["HEADER_KEYS", "load_cases", "parse_case", "scenario_cases", "write_case"]

HEADER_KEYS = ("description", "clauses", "mode", "scenario", "ambiguity")
"""Header keys in the order `write_case` writes them."""
_REQUIRED = ("description", "clauses", "mode")
_REQUEST, _ANSWER, _HEADER = ">> ", "<< ", "// "


@dataclass
class _Reading:
    """What has been read of one file so far, with the line each part came from."""

    path: Path
    header: dict[str, tuple[str, int]] = field(default_factory=dict)
    request: tuple[Any, int] | None = None
    answer: tuple[Any, int] | None = None

    def fail(self, line: int, message: str) -> ConfigError:
        return ConfigError(f"{self.path}:{line}: {message}")


def parse_case(path: Path) -> Case:
    """One case file, checked against the contract; ConfigError names the file and the line."""
    path = Path(path)
    try:
        text = path.read_bytes().decode("utf-8")  # no newline translation: a CR is an error
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read the case: {exc}") from exc
    reading = _Reading(path)
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    for number, line in enumerate(lines, start=1):
        _read_line(reading, number, line)
    return _build(reading, len(lines))


def _read_line(reading: _Reading, number: int, line: str) -> None:
    if "\r" in line:
        raise reading.fail(number, "a carriage return: case files have LF line ends")
    if line.startswith(_HEADER):
        if reading.request is not None:
            raise reading.fail(number, "a header line after the request")
        key, sep, value = line[len(_HEADER):].partition(": ")
        if not sep or not value.strip():
            raise reading.fail(number, f"a header line is `// key: value`, got {line!r}")
        if key not in HEADER_KEYS:
            raise reading.fail(number, f"unknown header key {key!r} (known: {', '.join(HEADER_KEYS)})")
        if key in reading.header:
            raise reading.fail(number, f"header key {key!r} given twice")
        reading.header[key] = (value.strip(), number)
    elif line.startswith(_REQUEST):
        if reading.request is not None:
            raise reading.fail(number, "a second `>>` line: a case is one exchange")
        reading.request = (_json(reading, number, line[len(_REQUEST):]), number)
    elif line.startswith(_ANSWER):
        if reading.request is None:
            raise reading.fail(number, "a `<<` line before the `>>` line")
        if reading.answer is not None:
            raise reading.fail(number, "a second `<<` line: a case is one exchange")
        answer = _json(reading, number, line[len(_ANSWER):])
        if not isinstance(answer, dict):
            raise reading.fail(number, "the answer is not a JSON object (a JSON-RPC response is one)")
        reading.answer = (answer, number)
    else:
        raise reading.fail(number, f"expected `// key: value`, `>> JSON` or `<< JSON`, got {line[:60]!r}")


def _json(reading: _Reading, number: int, text: str) -> Any:
    try:
        return loads(text)
    except JsonError as exc:
        raise reading.fail(number, f"not one JSON document: {exc}") from None


def _build(reading: _Reading, last_line: int) -> Case:
    """Check the header and the request against the contract, then make the Case."""
    if reading.request is None:
        raise reading.fail(last_line or 1, "no `>>` request line")
    request, request_line = reading.request
    for key in _REQUIRED:
        if key not in reading.header:
            raise reading.fail(request_line, f"missing header `// {key}: …` before the request")
    method = reading.path.parent.name
    values = {key: _check_header(reading, key, value, line) for key, (value, line) in reading.header.items()}
    _check_request(reading, request, request_line, method)
    return Case(
        name=f"{method}/{reading.path.stem}",
        method=method,
        path=reading.path,
        description=values["description"],
        clauses=values["clauses"],
        mode=values["mode"],
        scenario=values.get("scenario", "default"),
        request=request,
        response=None if reading.answer is None else reading.answer[0],
        ambiguity=values.get("ambiguity"),
    )


def _check_header(reading: _Reading, key: str, value: str, line: int) -> Any:
    check = _HEADER_CHECKS.get(key)
    problem = check(value) if check else None
    if problem:
        raise reading.fail(line, f"{key}: {problem}")
    if key == "clauses":
        return tuple(part.strip() for part in value.split(","))
    return value


def _clauses_problem(value: str) -> str | None:
    ids = [part.strip() for part in value.split(",")]
    if "" in ids:
        return f"an empty clause id in {value!r}"
    unknown = [clause for clause in ids if clause not in Contract.default().clauses]
    if len(set(ids)) != len(ids):
        return f"a clause id is listed twice in {value!r}"
    return f"unknown clause id(s) {', '.join(unknown)}" if unknown else None


def _mode_problem(value: str) -> str | None:
    kind, _, name = value.partition(":")
    if kind not in MODES or (kind == "invariant") != bool(name):
        return f"expected exact, schema or invariant:<name>, got {value!r}"
    if kind == "invariant" and name not in INVARIANTS:
        return f"unknown invariant {name!r} (known: {', '.join(INVARIANTS)})"
    return None


def _scenario_problem(value: str) -> str | None:
    names = bundled_scenarios()
    return None if value in names else f"{value!r} is not a bundled scenario ({', '.join(names)})"


def _ambiguity_problem(value: str) -> str | None:
    return None if value in Contract.default().ambiguities else f"unknown ambiguity {value!r}"


_HEADER_CHECKS: dict[str, Callable[[str], str | None]] = {
    "clauses": _clauses_problem,
    "mode": _mode_problem,
    "scenario": _scenario_problem,
    "ambiguity": _ambiguity_problem,
}


def _check_request(reading: _Reading, request: Any, line: int, method: str) -> None:
    if method not in Contract.default().methods:
        raise reading.fail(line, f"the folder {method!r} is not a method of the contract")
    if not isinstance(request, dict):
        raise reading.fail(line, "the request is not a JSON object")
    if request.get("method") != method:
        raise reading.fail(line, f"the request's method {request.get('method')!r} is not the folder's {method!r}")
    if "id" not in request:
        raise reading.fail(line, "the request has no id: a notification gets no answer to record")


def write_case(case: Case) -> str:
    """The file text of a case: header in `HEADER_KEYS` order, then `>>` and (when filled) `<<`."""
    header = {
        "description": case.description,
        "clauses": ", ".join(case.clauses),
        "mode": case.mode,
        "scenario": case.scenario,
        "ambiguity": case.ambiguity,
    }
    lines = [f"{_HEADER}{key}: {value}" for key, value in header.items() if value is not None]
    lines.append(_REQUEST + dumps(case.request))
    if case.response is not None:
        lines.append(_ANSWER + dumps(case.response))
    return "\n".join(lines) + "\n"


def load_cases(root: Path = CASES_DIR, *, method: str | None = None) -> list[Case]:
    """Every case under `root` (or one method's), sorted by name; the first broken file raises."""
    root = Path(root)
    if method is not None and method not in Contract.default().methods:
        raise ConfigError(f"unknown method {method!r}")
    folders = [root / method] if method is not None else sorted(p for p in root.iterdir() if p.is_dir())
    paths = sorted(path for folder in folders if folder.is_dir() for path in folder.glob("*.io"))
    return [parse_case(path) for path in paths]


def scenario_cases(scenario: str) -> list[Case]:
    """The golden cases recorded over `scenario` (a bundled name; a scenario file has none), what a scenario
    differential replays; `ConfigError` for a case file that cannot be read."""
    return [case for case in load_cases() if case.scenario == scenario]
