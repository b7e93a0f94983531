"""Pagination checks on long lists and on list ends the spec allows.

A walk compares what it walked whatever the list's length (a server that ignores `cursor` only
on long lists is caught), and a non-null cursor before an empty last page is not a spec failure.
"""

from __future__ import annotations

import contextlib
import functools
from typing import Any

import csi_conformance.harness.checks  # noqa: F401  (registers the catalogue)
from csi_conformance.harness.checks.pagination.checks import PAGE_SIZES, WALK_PAGES
from csi_conformance.harness.connection import Target
from csi_conformance.harness.context import RunFacts
from csi_conformance.harness.core.model import Basis, RunResult, Status
from csi_conformance.harness.core.profile import PROFILES
from csi_conformance.harness.engine.runner import RunConfig, run
from csi_conformance.reference_server.app import create_app
from csi_conformance.reference_server.generate import generate_ledger
from csi_conformance.reference_server.methods import call
from csi_conformance.reference_server.options import ServerOptions
from csi_conformance.reference_server.serve import running_server
from csi_conformance.schema import Contract

from .broken import Dispatch, Variant, serving

LONG = "getLatestCompressionSignatures"
SHORT_LIST = 60


@functools.cache
def _long_ledger():
    return generate_ledger(accounts=300, seed=1)


def _run_long(fault: Any, only: list[str]) -> RunResult:
    """A run against a reference over a generated ledger whose latest-signatures list is long."""
    options, contract, ledger = ServerOptions(), Contract.default(), _long_ledger()

    def real(method: str, params: Any) -> Any:
        return call(ledger, method, params, options, contract)

    dispatch = real if fault is None else (lambda method, params: fault(real, method, params))
    with contextlib.ExitStack() as stack:
        url = stack.enter_context(running_server(create_app(dispatch, options, contract=contract)))
        target = stack.enter_context(Target(url))
        return run(target, RunFacts(profile=PROFILES["spec"]), RunConfig(only=only))


def _long_list_length() -> int:
    value = call(_long_ledger(), LONG, {"limit": 1000}, ServerOptions(), Contract.default())["value"]
    assert value["cursor"] is None
    return len(value["items"])


def _walk_check(result: RunResult):
    return next(check for check in result.checks if check.check_id == "pagination.walk")


def _cursor_ignored_on_long_lists(real: Dispatch, method: str, params: Any) -> Any:
    if isinstance(params, dict) and "cursor" in params:
        whole = real(method, {k: v for k, v in params.items() if k not in ("cursor", "limit")})
        items = [m for m in whole["value"].values() if isinstance(m, list)]
        if items and len(items[0]) > SHORT_LIST:
            params = {k: v for k, v in params.items() if k != "cursor"}
    return real(method, params)


def test_cursor_ignored_on_a_long_list_is_caught() -> None:
    assert _long_list_length() > SHORT_LIST
    result = _run_long(_cursor_ignored_on_long_lists, ["pagination.walk", LONG])
    check = _walk_check(result)
    assert [(f.status, f.method) for f in check.findings] == [(Status.FAIL, LONG)]


def test_a_long_list_is_compared_whole() -> None:
    """Each small page size walks its bound; a larger one covers the rest: every item compared."""
    length = _long_list_length()
    result = _run_long(None, ["pagination.walk", LONG])
    check = _walk_check(result)
    assert check.findings == []
    assert check.examined["items"] == sum(min(WALK_PAGES * size, length) for size in PAGE_SIZES) + length


def _end_marker(real: Dispatch, method: str, params: Any) -> Any:
    """A last page that still carries a cursor, which leads to an empty page with a null cursor."""
    if isinstance(params, dict) and params.get("cursor") == "csi-end":
        result = real(method, {k: v for k, v in params.items() if k != "cursor"})
        return {**result, "value": {key: ([] if isinstance(v, list) else None) for key, v in result["value"].items()}}
    result = real(method, params)
    value = result.get("value") if isinstance(result, dict) else None
    if isinstance(value, dict) and "cursor" in value and value["cursor"] is None:
        result = {**result, "value": {**value, "cursor": "csi-end"}}
    return result


def test_a_cursor_before_an_empty_last_page_is_not_a_spec_failure() -> None:
    variant = Variant("end-marker", "pagination", "pagination.null-cursor-at-end", dispatch=_end_marker)
    with contextlib.ExitStack() as stack:
        target = stack.enter_context(Target(stack.enter_context(serving(variant))))
        result = run(target, RunFacts(profile=PROFILES["spec"]), RunConfig(only=["pagination"]))
    findings = {(f.check_id, f.title, f.basis, f.status) for f in result.findings}
    assert findings == {("pagination.null-cursor-at-end", "Cursor after a short page", Basis.OBSERVED, Status.INFO)}
    assert {c.check_id: c.status for c in result.checks}["pagination.walk"] is Status.PASS
