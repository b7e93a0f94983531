"""The consistency checks cover every discovered key, and judge long lists over what they walked.

Before, `consistency.closed-not-listed` looked at three owners, and a signature list longer than
2,000 items made `consistency.signatures-include` skip wholesale.
"""

from __future__ import annotations

import contextlib
from typing import Any

import csi_conformance.harness.checks  # noqa: F401  (registers the catalogue)
from csi_conformance.groundwork.base58 import b58encode
from csi_conformance.harness.connection import Target
from csi_conformance.harness.context import RunFacts
from csi_conformance.harness.core.model import RunResult, Status
from csi_conformance.harness.core.profile import PROFILES
from csi_conformance.harness.engine.runner import RunConfig, run

from .broken import Dispatch, Variant, serving

PADDING = 2_100
"""Signatures put before the real ones in every owner's signature list: more than 2,000."""


def _run(dispatch: Any, check: str) -> RunResult:
    with contextlib.ExitStack() as stack:
        target = stack.enter_context(Target(stack.enter_context(serving(Variant("v", "consistency", check,
                                                                                   dispatch=dispatch)))))
        return run(target, RunFacts(profile=PROFILES["spec"]), RunConfig(only=[check]))


def _closed_by_owner(real: Dispatch) -> dict[str, list[dict]]:
    closed: dict[str, list[dict]] = {}
    for item in real("getLatestCompressionSignatures", {"limit": 1000})["value"]["items"]:
        info = real("getTransactionWithCompressionInfo", {"signature": item["signature"]}) or {}
        for entry in info.get("compressionInfo", {}).get("closedAccounts", []):
            closed.setdefault(entry["account"]["owner"], []).append(entry["account"])
    return closed


def test_closed_accounts_of_a_later_owner_are_found() -> None:
    """Closed accounts listed, only in the lists of owners after the first three discovered."""
    first = _run(None, "consistency.closed-not-listed").discovered["owners"][:3]

    def later_owners_list_closed(real: Dispatch, method: str, params: Any) -> Any:
        result = real(method, params)
        owner = params.get("owner") if isinstance(params, dict) else None
        if method == "getCompressedAccountsByOwner" and owner not in first and "cursor" not in params:
            extra = [account for accounts in _closed_by_owner(real).values() for account in accounts]
            result = {**result, "value": {**result["value"], "items": result["value"]["items"] + extra}}
        return result

    result = _run(later_owners_list_closed, "consistency.closed-not-listed")
    assert set(result.discovered["owners"]) - set(first), "no owner after the first three: the test proves nothing"
    check = result.checks[0]
    assert [(f.status, f.title) for f in check.findings] == [(Status.FAIL, "Closed account listed")]
    assert check.examined["owners"] == len(result.discovered["owners"])


def _padded(real: Dispatch, method: str, params: Any) -> Any:
    """Owner signature lists with `PADDING` newer signatures first, paged by an index cursor; and
    token-owner signature lists that leave out every signature (the fault)."""
    if method == "getCompressionSignaturesForTokenOwner":
        result = real(method, {"owner": params["owner"]})
        return {**result, "value": {"items": [], "cursor": None}}
    if method != "getCompressionSignaturesForOwner":
        return real(method, params)
    result = real(method, {"owner": params["owner"]})
    fakes = [{"signature": b58encode(i.to_bytes(64, "big")), "slot": 5000, "blockTime": 1700002000}
             for i in range(1, PADDING + 1)]
    items = fakes + result["value"]["items"]
    start, limit = int(params.get("cursor", "0")), params.get("limit", 1000)
    following = start + limit if start + limit < len(items) else None
    return {**result, "value": {"items": items[start:start + limit],
                                "cursor": None if following is None else str(following)}}


def test_signature_lists_longer_than_two_thousand_are_searched() -> None:
    result = _run(_padded, "consistency.signatures-include")
    check = result.checks[0]
    titles = {(f.status, f.title, f.method) for f in check.findings}
    assert titles == {(Status.FAIL, "Transaction missing from signature list", "getCompressionSignaturesForTokenOwner")}
    expected = [f.expected for f in check.findings] + [e["expected"] for f in check.findings for e in f.examples]
    assert expected and all("in getCompressionSignaturesForTokenOwner" in m for m in expected)
    assert check.examined["lookups"] > 0
