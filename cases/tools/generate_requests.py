"""Write the golden cases' requests from the bundled scenarios.

Run as `python -m csi_conformance.cases.tools.generate_requests`.

Every key, hash, address and signature is read from the reference's ledger of the scenario by
the name the scenario gives it (`cases.tools.case_builder.Names`), never copied by hand, and the
cursor of a middle page is the one the reference answers for the page before. A file keeps the
answer it holds when its request is unchanged and is otherwise written without one: run
`csi cases fill` afterwards. Edge and error cases are derived
from the contract here (limits, pages, error rules, not-found rules); the rest are listed
method by method in `cases.tools.request_tables`.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

from csi_conformance.cases import CASES_DIR
from csi_conformance.cases.loader import parse_case, write_case
from csi_conformance.cases.model import Case
from csi_conformance.cases.tools.case_builder import Builder, Names, stale_scenarios
from csi_conformance.cases.tools.fill import Reference
from csi_conformance.cases.tools.request_tables import TABLES
from csi_conformance.groundwork.errors import ConfigError
from csi_conformance.groundwork.jsonio import dumps
from csi_conformance.schema import Contract

__all__ = ["NOT_COVERED", "NOT_EXPRESSIBLE", "generate", "main", "stale_scenarios"]

NOT_COVERED: dict[tuple[str, str], str] = {}
"""Error rules no case can exercise yet, with the reason; a test fails once one is covered."""

NOT_EXPRESSIBLE = {"exchange": "a case is a JSON-RPC body: it cannot leave out or change the api-key of the URL"}
"""Ambiguity subjects no case can exercise, with the reason (see `Contract.ambiguities`)."""


PAGED = {
    # method: (params naming the richest key, page size that gives several pages)
    "getCompressedAccountsByOwner": (lambda n: {"owner": n.key("counter")}, 5),
    "getCompressedTokenAccountsByOwner": (lambda n: {"owner": n.key("alice")}, 1),
    "getCompressedTokenAccountsByDelegate": (lambda n: {"delegate": n.key("dave")}, 1),
    "getCompressedTokenBalancesByOwner": (lambda n: {"owner": n.key("bob")}, 1),
    "getCompressionSignaturesForAddress": (lambda n: {"address": n.address("r1b")}, 1),
    "getCompressionSignaturesForOwner": (lambda n: {"owner": n.key("counter")}, 3),
    "getCompressionSignaturesForTokenOwner": (lambda n: {"owner": n.key("bob")}, 2),
    "getLatestCompressionSignatures": (lambda n: {}, 4),
    "getLatestNonVotingSignatures": (lambda n: {}, 4),
}


def paged_cases(b: Builder) -> None:
    """Per list method: limit 1, the maximum and one past it, every page, a malformed cursor, no key."""
    for name, (params_of, size) in PAGED.items():
        method, params = b.contract.method(name), params_of(b.names)
        top = method.observed["limit"]["max"]
        b.add(name, "limit-1", {**params, "limit": 1}, ["4.2-N3"], "limit 1 answers one item")
        b.add(name, f"limit-{top}", {**params, "limit": top}, ["4.2-N3", "8-S2"],
              f"limit {top}, the observed maximum, is accepted")
        b.error(name, f"limit-{top + 1}", {**params, "limit": top + 1}, ["4.2-N3", "8-S2"],
                f"limit {top + 1}, past the observed maximum, is refused")
        b.error(name, "error-malformed-cursor", {**params, "cursor": "not-a-cursor-0OIl"}, ["4.1-R8", "2.1-R4"],
                "a cursor no page returned is refused, not read as an empty page (observed)")
        for required in method.required_params:
            b.error(name, f"error-missing-{required}", {}, ["4.1-R5"], f"params without `{required}` are refused")
        carries = ": a full page carries a cursor" if method.pagination.cursor_shown else ""
        page = b.add(name, "page-1", {**params, "limit": size}, ["4.1-R8", "4.2-N3"],
                     f"first page, {size} per page{carries}")
        for number in range(2, 6):
            cursor = b.value(page).get(method.pagination.cursor)
            if cursor is None:
                break
            page = b.add(name, f"page-{number}", {**params, "limit": size, "cursor": cursor}, ["4.1-R8", "4.2-N3"],
                         f"page {number}, {size} per page, with the cursor page {number - 1} answered")


def not_found_cases(b: Builder) -> None:
    """Each list for a key without anything (7-N3 where the spec states it), or from an empty indexer."""
    for name in PAGED:
        method = b.contract.method(name)
        keys = {param: b.names.key("idle") for param in method.required_params}
        if method.not_found and method.not_found[0] == "7-N3":
            b.add(name, "not-found-idle", keys, ["7-N3"], "a key without anything: an empty items array",
                  mode="invariant:empty-items")
        elif keys:
            b.add(name, "idle", keys, ["4.1-R8"], "a key without anything: an empty page, null cursor")
        else:
            b.add(name, "empty-scenario", {}, ["4.1-R8"], "an indexer that saw nothing: an empty page",
                  scenario="empty")


def error_rule_cases(b: Builder) -> None:
    """Every method with an `exactly-one-of` or `unknown-members-rejected` rule: each way to break it."""
    one_account = {"address": b.names.address("c8"), "hash": b.names.hash("c8")}
    for method in b.contract.methods.values():
        for rule in method.errors:
            clauses = list(rule.clauses)
            if rule.kind == "exactly-one-of":
                both = {member: one_account[member] for member in rule.members}
                b.error(method.name, "error-exactly-one-of-neither", {}, clauses,
                        f"neither of {' and '.join(rule.members)} is refused")
                b.error(method.name, "error-exactly-one-of-both", both, clauses,
                        f"both {' and '.join(rule.members)} are refused, even naming one account")
            elif rule.kind == "unknown-members-rejected":
                known = {"hash": b.names.hash("c1")}
                b.error(method.name, "error-unknown-members-rejected", {**known, "commitment": "final"}, clauses,
                        "an unknown params member is refused")
                b.error(method.name, "error-unknown-members-rejected-case", {"Hash": known["hash"]},
                        [*clauses, "4.1-R9"], "member names are case-sensitive: `Hash` is unknown")


GROUPS = (paged_cases, not_found_cases, error_rule_cases, *TABLES)


def generate(root: Path = CASES_DIR) -> list[Case]:
    """Every case, without answers, at its path under `root`; a duplicate name is a bug here."""
    builder = Builder(Contract.default(), Names(), Reference())
    for group in GROUPS:
        group(builder)
    cases = [spec.case(root) for spec in builder.specs]
    names = [case.name for case in cases]
    duplicates = sorted({name for name in names if names.count(name) > 1})
    if duplicates:
        raise ValueError(f"cases generated twice: {duplicates}")
    return cases


def _keep_answer(case: Case) -> Case:
    """The case with the answer its file already holds for the very same request, if any."""
    try:
        old = parse_case(case.path) if case.path.is_file() else None
    except ConfigError:
        old = None
    if old is None or (old.scenario, dumps(old.request)) != (case.scenario, dumps(case.request)):
        return case
    return replace(case, response=old.response)


def _files(root: Path) -> Iterator[Path]:
    for folder in sorted(p for p in root.iterdir() if p.is_dir()):
        yield from sorted(folder.glob("*.io"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m csi_conformance.cases.tools.generate_requests",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=CASES_DIR, help="folder of the method folders")
    parser.add_argument("--prune", action="store_true", help="delete .io files this script does not write")
    args = parser.parse_args(argv)
    cases = generate(args.root)
    written = {case.path for case in cases}
    for case in cases:
        case.path.parent.mkdir(parents=True, exist_ok=True)
        case.path.write_text(write_case(_keep_answer(case)), encoding="utf-8")
    others = [path for path in _files(args.root) if path not in written]
    for path in others:
        if args.prune:
            path.unlink()
        print(f"{'deleted' if args.prune else 'not generated here'}: {path}", file=sys.stderr)
    print(f"wrote {len(cases)} case requests under {args.root}; now run `csi cases fill`", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
