"""`csi cases fill` and `csi cases check`: record the golden answers, and hold the cases to the contract.

`fill` rewrites each case file's `<<` line with the reference's answer. `check` loads every case
(a malformed file is a configuration error, exit 2) and reports, for each, what is off: a
request that breaks the contract without being a deliberate error case, an answer that is
missing or breaks the contract or the case's invariant, an error answer in a mode that would
compare its code, or an answer the reference no longer gives. Anything off: exit 1.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from csi_conformance.cases import CASES_DIR
from csi_conformance.cases.invariants import check_invariant
from csi_conformance.cases.loader import load_cases
from csi_conformance.cases.model import Case
from csi_conformance.cases.tools.fill import Reference, fill_files
from csi_conformance.groundwork.jsonio import dumps
from csi_conformance.schema import Contract

__all__ = ["case_problems", "register"]


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("cases", help="golden request/response cases over the bundled scenarios")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    fill = actions.add_parser("fill", help="record each case's expected answer (<<) from the reference server")
    check = actions.add_parser("check", help="check every case against the contract and the reference")
    for action in (fill, check):
        action.add_argument("--method", help="only the cases of this method")
        action.add_argument("--root", type=Path, default=CASES_DIR, help="folder of the method folders")
    fill.set_defaults(handler=_fill)
    check.set_defaults(handler=_check)


def _fill(args: argparse.Namespace) -> int:
    count, changed = fill_files(args.root, method=args.method)
    for path in changed:
        print(f"filled {path}")
    print(f"{count} cases filled, {len(changed)} changed")
    return 0


def _check(args: argparse.Namespace) -> int:
    cases = load_cases(args.root, method=args.method)
    contract, reference = Contract.default(), Reference()
    off = 0
    for case in cases:
        problems = case_problems(case, contract, reference)
        off += bool(problems)
        for problem in problems:
            print(f"FAIL {case.name}: {problem}")
    methods = len({case.method for case in cases})
    verdict = "every case holds" if not off else f"{off} case{'s' * (off != 1)} off"
    print(f"{len(cases)} cases over {methods} methods: {verdict}")
    return 1 if off or not cases else 0


def case_problems(case: Case, contract: Contract, reference: Reference) -> list[str]:
    """What is off with one case; empty when it holds."""
    problems = []
    if case.invariant != "error":
        violations = contract.validator(f"{contract.method(case.method).name}.request").violations(case.request)
        if violations:
            problems.append(f"the request breaks the contract ({violations[0]}) but the mode is not invariant:error")
    answer = case.response
    if answer is None:
        return [*problems, "no answer recorded: run `csi cases fill`"]
    is_error = "error" in answer
    validator = contract.validator("Error") if is_error else contract.response_validator(case.method)
    violations = validator.violations(answer)
    if violations:
        problems.append(f"the recorded answer breaks the contract: {violations[0]}")
    if is_error and case.invariant is None:
        problems.append(f"an error answer in mode {case.mode}: the spec fixes no error code (7-R5), "
                        "use invariant:error")
    if case.invariant and (reason := check_invariant(case.invariant, answer)):
        problems.append(f"the recorded answer breaks invariant {case.invariant}: {reason}")
    now = reference.answer(case)
    if dumps(now) != dumps(answer):
        problems.append(f"the reference now answers differently at {_difference(answer, now)}: run `csi cases fill`")
    return problems


def _difference(recorded: Any, now: Any, path: str = "$") -> str:
    """The first JSON path where two documents differ, with both values (clipped)."""
    if isinstance(recorded, dict) and isinstance(now, dict) and list(recorded) == list(now):
        for key in recorded:
            if dumps(recorded[key]) != dumps(now[key]):
                return _difference(recorded[key], now[key], f"{path}.{key}")
    if isinstance(recorded, list) and isinstance(now, list) and len(recorded) == len(now):
        for index, (left, right) in enumerate(zip(recorded, now, strict=True)):
            if dumps(left) != dumps(right):
                return _difference(left, right, f"{path}[{index}]")
    return f"{path} (recorded {_clip(dumps(recorded))}, now {_clip(dumps(now))})"


def _clip(text: str, size: int = 80) -> str:
    return text if len(text) <= size else text[: size - 1] + "…"
