"""The two comparisons that rest on the ledger and on the cursor rule, run over real HTTP on loopback.

`crypto.tree-roots` must judge the clean reference in both modes, fail a tree that cannot be, and say
in the notes, never fail, what it cannot tell apart without a reference (a nullification lost or not
yet made) or could not rebuild. `pagination.walk-with-params` must walk the spec's own `filters`
example when a target accepts it, say when a list was compared over part of it, and read a list that
moved again instead of failing it.
"""

from __future__ import annotations

import contextlib
import itertools
from typing import Any

import csi_conformance.harness.checks  # noqa: F401  (registers the catalogue)
import csi_conformance.harness.checks.pagination.param_walks as paged
import pytest
from csi_conformance.harness.connection import Target
from csi_conformance.harness.core.model import CheckResult, RunResult, Status
from csi_conformance.harness.core.profile import PROFILES
from csi_conformance.harness.discover import LIST_LIMIT
from csi_conformance.harness.engine.runner import run
from csi_conformance.ledger_crypto import HIGHEST_ADDRESS_PLUS_ONE, AddressTree

from .broken import Dispatch, Variant, _ledger, serving
from .run_args import run_args
from .variants_crypto import _proofs_from
from .variants_trust import VARIANTS, served_by

ROOTS = "crypto.tree-roots"
WALK = "pagination.walk-with-params"
BY_NAME = {variant.name: variant for variant in VARIANTS}


def _run(variant: Variant | None, only: list[str], *, reference: bool = False) -> RunResult:
    with contextlib.ExitStack() as stack:
        target = stack.enter_context(Target(stack.enter_context(serving(variant))))
        config: dict[str, Any] = {"profile": PROFILES["spec"], "only": only}
        compared = None
        if reference:
            compared = stack.enter_context(Target(stack.enter_context(serving(None))))
            config["scenario"] = "default"
        return run(target, *run_args(**config), reference=compared)


def _check(result: RunResult, check_id: str) -> CheckResult:
    return next(check for check in result.checks if check.check_id == check_id)


@pytest.mark.parametrize("reference", [False, True], ids=["rebuilt", "reference"])
def test_clean_reference_roots_are_judged_whole(reference: bool) -> None:
    """Both state trees and the address tree judged, nothing left unsaid, nothing failed."""
    check = _check(_run(None, [ROOTS], reference=reference), ROOTS)
    assert (check.status, check.findings, check.not_reached) == (Status.PASS, [], [])
    assert check.examined["roots"] >= 3


def test_a_lost_nullification_without_reference_is_said_not_failed() -> None:
    """Without the ledger, a nullification lost reads like one a forester has not made yet: a note, no FAIL."""
    check = _check(_run(BY_NAME["state-tree-lost-nullification"], [ROOTS]), ROOTS)
    tree = _ledger().accounts[next(h for tx in _ledger().transactions.values() for h in tx.closed)].tree
    spent = sum(1 for account in _ledger().accounts.values() if account.tree == tree and account.closed)
    assert check.status is Status.PASS and check.findings == []
    assert any(f"{spent - 1} of its {spent} spent leaves nullified" in note for note in check.not_reached)


def test_a_lost_insertion_without_reference_is_said_not_failed() -> None:
    check = _check(_run(BY_NAME["address-tree-lost-insertion"], [ROOTS]), ROOTS)
    created = len({a.address for a in _ledger().accounts.values() if a.address is not None})
    assert check.status is Status.PASS and check.findings == []
    assert any(f"holds {created - 1} of the {created} addresses seen" in note for note in check.not_reached)


def test_a_lost_nullification_names_the_leaf_with_a_reference() -> None:
    (finding,) = _check(_run(BY_NAME["state-tree-lost-nullification"], [ROOTS], reference=True), ROOTS).findings
    lacks = finding.detail["nullifications the target's tree lacks"]
    assert finding.received["seq"] + 1 == finding.expected["seq"] and len(lacks) == 1
    assert finding.path == "$.result.value.roots[0]"


def test_a_nullification_applied_twice_is_failed_in_both_modes() -> None:
    """One operation too many, the same leaves: the root index names no seq n appends and s spends allow, and
    the reference has the same root at another index."""
    twice = Variant("twice", "crypto", ROOTS, dispatch=served_by("twice"))
    (rebuilt,) = _check(_run(twice, [ROOTS]), ROOTS).findings
    (compared,) = _check(_run(twice, [ROOTS], reference=True), ROOTS).findings
    assert (rebuilt.title, rebuilt.path) == ("Root index names no seq the tree can have",
                                             "$.result.value.rootIndices[0]")
    assert (compared.title, compared.received["rootIndex"] - compared.expected["rootIndex"]) == (
        "Root index differs from the ledger's", 1)


def _odd_sentinel() -> AddressTree:
    """The ledger's address tree with its highest sentinel hashed as (HI, 1, 0): every proof of an address
    still folds (no address's low element is the sentinel), but no insertions make that tree."""
    ledger = _ledger()
    tree = AddressTree()
    tree.insert_many([ledger.address_tree.element(i).value for i in range(2, ledger.address_tree.next_index)])
    tree.write_elements([(1, (HIGHEST_ADDRESS_PLUS_ONE, 1, 0))], seq=tree.seq)
    return tree


def test_an_address_tree_no_insertions_make_is_failed_without_reference() -> None:
    check = _check(_run(Variant("sentinel", "crypto", ROOTS, dispatch=_proofs_from(_odd_sentinel)), [ROOTS]), ROOTS)
    (finding,) = check.findings
    assert (finding.title, finding.status, finding.path) == (
        "Root is no root the tree had at that seq", Status.FAIL, "$.result.value[0].root")


def _without_one_transaction(real: Dispatch, method: str, params: Any) -> Any:
    """Compression info of the oldest listed transaction withheld (null), so discovery cannot read it."""
    if method == "getTransactionWithCompressionInfo":
        oldest = real("getLatestCompressionSignatures", {"limit": LIST_LIMIT})["value"]["items"][-1]["signature"]
        if params.get("signature") == oldest:
            return None
    return real(method, params)


def test_trees_not_rebuilt_when_a_transaction_was_not_read() -> None:
    check = _check(_run(Variant("withheld", "crypto", ROOTS, dispatch=_without_one_transaction), [ROOTS]), ROOTS)
    assert Status.FAIL not in {finding.status for finding in check.findings}
    assert any("not rebuilt: discovery read" in note for note in check.not_reached)


def _moves_after_discovery(fault: Variant) -> Variant:
    """`fault`, on a target that lists one more transaction from the check's second look on."""
    looks = itertools.count()

    def dispatch(real: Dispatch, method: str, params: Any) -> Any:
        result = fault.dispatch(real, method, params)
        if method == "getLatestCompressionSignatures" and params.get("limit") == LIST_LIMIT and next(looks) >= 1:
            newer = {**result["value"]["items"][0], "signature": "1" * 64, "slot": 10**6}
            result = {**result, "value": {**result["value"], "items": [newer, *result["value"]["items"]]}}
        return result

    return Variant("moves", "crypto", ROOTS, dispatch=dispatch)


def test_a_tree_that_moved_is_not_failed() -> None:
    fault = BY_NAME["state-tree-nullified-live-leaf"]
    assert _check(_run(fault, [ROOTS]), ROOTS).status is Status.FAIL
    check = _check(_run(_moves_after_discovery(fault), [ROOTS]), ROOTS)
    assert check.findings == [] and any("moved during the check" in note for note in check.not_reached)


# -- pagination with optional params -------------------------------------------------------------------------
def _example_filter_accepted(real: Dispatch, method: str, params: Any) -> Any:
    if isinstance(params, dict) and params.get("filters") == [{}]:
        params = {k: v for k, v in params.items() if k != "filters"}
    return real(method, params)


def _filters_shape(result: RunResult) -> dict[str, int]:
    return next(seen.counts for seen in result.observations if seen.ambiguity == "filters-shape")


def test_the_spec_example_filter_is_walked_when_accepted() -> None:
    """A target refusing the spec's `filters: [{}]` follows a reading of filters-shape: recorded as that
    reading, not as work left undone; a target accepting it has the walk with it compared."""
    refused = _run(None, [WALK])
    clean = _check(refused, WALK)
    accepted = _check(_run(Variant("example", "pagination", WALK, dispatch=_example_filter_accepted), [WALK]), WALK)
    assert (clean.status, clean.not_reached) == (Status.PASS, []) and sum(_filters_shape(refused).values()) >= 1
    assert accepted.status is Status.PASS and accepted.not_reached == []
    assert accepted.examined["walks"] == clean.examined["walks"] + 1


def test_a_walk_cut_by_its_bound_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(paged, "WALK_PAGES", 1)
    check = _check(_run(None, [WALK]), WALK)
    assert check.status is Status.PASS
    assert any("compared over the first" in note for note in check.not_reached)


def _first_read_short() -> Variant:
    """The first unpaged read of a sliced list misses its last account (it arrived since): a list that moved."""
    reads = itertools.count()

    def dispatch(real: Dispatch, method: str, params: Any) -> Any:
        result = real(method, params)
        unpaged = isinstance(params, dict) and "dataSlice" in params and "cursor" not in params
        if unpaged and params.get("limit") == LIST_LIMIT and next(reads) == 0:
            result = {**result, "value": {**result["value"], "items": result["value"]["items"][:-1]}}
        return result

    return Variant("moved", "pagination", WALK, dispatch=dispatch)


def test_a_list_that_moved_is_read_again_not_failed() -> None:
    check = _check(_run(_first_read_short(), [WALK]), WALK)
    assert check.findings == [] and any("moved during the walk" in note for note in check.not_reached)
