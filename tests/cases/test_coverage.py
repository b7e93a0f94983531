"""The committed cases cover the contract: every method, error rule, limit edge, not-found rule and ambiguity.

Every list below is derived from the Contract, so a rule added to schema/ fails here until a
case exercises it.
"""

from __future__ import annotations

import pytest
from csi_conformance.cases.invariants import INVARIANTS
from csi_conformance.cases.loader import load_cases, write_case
from csi_conformance.cases.model import Case
from csi_conformance.cases.tools.case_builder import stale_scenarios
from csi_conformance.cases.tools.generate_requests import NOT_COVERED, NOT_EXPRESSIBLE, generate
from csi_conformance.schema import Contract


@pytest.fixture(scope="module")
def cases() -> list[Case]:
    return load_cases()


def _stems(cases: list[Case], method: str) -> dict[str, Case]:
    return {case.name.split("/", 1)[1]: case for case in cases if case.method == method}


def test_at_least_150_cases(cases: list[Case]) -> None:
    assert len(cases) >= 150


def test_every_method_has_a_folder_with_an_answer_that_is_no_error(cases: list[Case], contract: Contract) -> None:
    for method in contract.methods:
        answered = [case for case in cases if case.method == method and "result" in case.response]
        assert answered, method


def test_every_error_rule_has_a_case(cases: list[Case], contract: Contract) -> None:
    for method in contract.methods.values():
        stems = _stems(cases, method.name)
        for rule in method.errors:
            found = [case for stem, case in stems.items() if stem.startswith(f"error-{rule.kind}")
                     and case.invariant == "error" and rule.clause in case.clauses]
            if (method.name, rule.kind) in NOT_COVERED:
                assert not found, f"{method.name} {rule.kind} is covered now: drop it from NOT_COVERED"
            else:
                assert found, f"{method.name}: no case of error rule {rule.kind} ({rule.clause})"


def test_a_bundled_scenario_is_stale() -> None:
    """7-C3 needs an indexer lagging behind its tip: the bundled `stale` scenario is one."""
    assert "stale" in stale_scenarios()


def test_every_limit_edge_has_a_case(cases: list[Case], contract: Contract) -> None:
    for method in contract.methods.values():
        stems = _stems(cases, method.name)
        for limit in method.limits:
            inside, outside = limit.edges()
            for count in inside + outside:
                case = stems.get(f"limit-{limit.param}-{count}")
                assert case is not None, f"{method.name}: no case of {count} {limit.param}"
                assert (case.invariant == "error") == (count in outside), case.name
                assert set(limit.clauses) <= set(case.clauses), case.name


def test_every_page_size_edge_has_a_case(cases: list[Case], contract: Contract) -> None:
    for method in contract.methods.values():
        stems = _stems(cases, method.name)
        if "limit" in method.observed:
            top = method.observed["limit"]["max"]
            edges = {1: None, top: None, top + 1: "error"}
            for limit, invariant in edges.items():
                case = stems.get(f"limit-{limit}")
                assert case is not None and case.invariant == invariant, f"{method.name}: limit {limit}"
                assert case.request["params"]["limit"] == limit
        if "max_addresses" in method.observed:
            top = method.observed["max_addresses"]
            assert len(stems[f"limit-addresses-{top}"].request["params"]) == top
            assert stems[f"limit-addresses-{top}"].invariant is None
            assert len(stems[f"limit-addresses-{top + 1}"].request["params"]) == top + 1
            assert stems[f"limit-addresses-{top + 1}"].invariant == "error"


def test_every_paged_method_has_first_and_middle_pages(cases: list[Case], contract: Contract) -> None:
    for method in contract.methods.values():
        if method.pagination is None or not method.pagination.cursor_shown:
            continue
        stems = _stems(cases, method.name)
        first, second = stems["page-1"], stems["page-2"]
        cursor = first.response["result"]["value"][method.pagination.cursor]
        assert cursor is not None and second.request["params"]["cursor"] == cursor, method.name


def test_every_failure_and_not_found_rule_of_section_7_has_a_case(cases: list[Case], contract: Contract) -> None:
    left_out = {rule.clause for method in contract.methods.values() for rule in method.errors
                if (method.name, rule.kind) in NOT_COVERED}
    cited = {clause for case in cases for clause in case.clauses}
    for clause in contract.clauses:
        if clause.startswith(("7-C", "7-N")) and clause not in left_out:
            assert clause in cited, clause
    for method in contract.methods.values():
        if method.not_found:
            assert any(method.not_found[0] in case.clauses and case.invariant for case in cases
                       if case.method == method.name), method.name


def test_every_ambiguity_has_a_case_that_does_not_pin_a_reading(cases: list[Case], contract: Contract) -> None:
    tagged = {case.ambiguity: case for case in cases if case.ambiguity}
    for amb in contract.ambiguities.values():
        if amb.subject in NOT_EXPRESSIBLE:
            assert amb.id not in tagged
            continue
        assert amb.id in tagged, amb.id
    assert all(case.mode != "exact" for case in tagged.values())


def test_every_invariant_is_used(cases: list[Case]) -> None:
    assert {case.invariant for case in cases if case.invariant} == set(INVARIANTS)


def test_request_ids_are_unique(cases: list[Case]) -> None:
    ids = [repr(case.request["id"]) for case in cases]
    assert len(ids) == len(set(ids))


def test_the_generator_writes_the_committed_requests(cases: list[Case]) -> None:
    """The committed files are what `python -m csi_conformance.cases.tools.generate_requests` writes, answers aside."""
    committed = {case.name: write_case(case).split("\n<< ")[0] for case in cases}
    generated = {case.name: write_case(case).rstrip("\n") for case in generate()}
    assert committed == generated
