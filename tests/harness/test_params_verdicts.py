"""Verdicts of the params family follow the basis of the rule broken, over real HTTP on loopback.

A correct server never gets FAIL: an empty ledger, a ledger without delegated token accounts, a
stale indexer, and a not-found transaction in the `{context, value: null}` reading are all right.
"""

from __future__ import annotations

import contextlib
from typing import Any

import csi_conformance.harness.checks  # noqa: F401  (registers the catalogue)
import pytest
from csi_conformance.groundwork.jsonio import dumps, loads
from csi_conformance.harness.connection import Target
from csi_conformance.harness.context import RunFacts
from csi_conformance.harness.core.model import Basis, RunResult, Status
from csi_conformance.harness.core.profile import PROFILES
from csi_conformance.harness.engine.runner import RunConfig, run
from csi_conformance.harness.report.junit import finding_text
from csi_conformance.reference_server.options import ServerOptions
from csi_conformance.reference_server.serve import running_server
from csi_conformance.reference_server.wiring import app_for, bundled_reference

from .broken import Dispatch, Variant, _ledger, _unknown_member_ignored, serving

NO_PARAMS = ("getIndexerHealth", "getIndexerSlot")


class ParamsDropped:
    """ASGI wrapper: a request to a method without params has its `params` removed before the server reads it,
    so `"params": "params"` is answered as if no params were sent (what JSON-RPC 2.0 forbids)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        chunks = []
        while True:
            message = await receive()
            chunks.append(message.get("body", b""))
            if not message.get("more_body"):
                break
        body = b"".join(chunks)
        with contextlib.suppress(Exception):
            request = loads(body)
            if isinstance(request, dict) and request.get("method") in NO_PARAMS:
                body = dumps({k: v for k, v in request.items() if k != "params"}).encode()

        async def replay():
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)


def _run(url_context: Any, only: list[str], profile: str = "spec") -> RunResult:
    with url_context as url, Target(url) as target:
        return run(target, RunFacts(profile=PROFILES[profile]), RunConfig(only=only))


def _check(result: RunResult, check_id: str):
    return next(check for check in result.checks if check.check_id == check_id)


@pytest.mark.parametrize(("profile", "status"), [("spec", Status.WARN), ("strict", Status.FAIL)])
def test_params_to_methods_without_params_rest_on_json_rpc(profile: str, status: Status) -> None:
    """#11.2: `"params": "params"` answered `ok` breaks JSON-RPC 2.0, not the spec: WARN, FAIL only under strict."""
    server = running_server(ParamsDropped(app_for(_ledger(), ServerOptions())))
    result = _run(server, ["params.generated-invalid"], profile)
    findings = [f for f in _check(result, "params.generated-invalid").findings
                if f.method in ("getIndexerHealth", "getIndexerSlot")]
    assert {f.method for f in findings} == {"getIndexerHealth", "getIndexerSlot"}
    assert {(f.status, f.basis) for f in findings} == {(status, Basis.JSON_RPC)}
    assert all("JSON-RPC 2.0" in finding_text(f) and f.clauses == ("4.1-R5",) for f in findings)
    assert not [f for f in result.findings if f.status is Status.FAIL and profile == "spec"]


@pytest.mark.parametrize("scenario", ["empty", "stale"])
def test_a_correct_server_without_data_gets_no_fail_and_no_error(scenario: str) -> None:
    """#11.3: missing keys (no owners, no delegated token accounts) and a stale indexer's health error
    are no FAIL and no crash: those methods are SKIP with the reason, the rest is examined."""
    result = _run(bundled_reference(scenario), ["params"])
    bad = [(f.check_id, f.method, f.title, f.status) for f in result.findings if f.status.rank >= Status.WARN.rank]
    assert bad == []
    valid = _check(result, "params.generated-valid")
    assert valid.status is Status.PASS and valid.examined["answers"] >= 100
    assert "no delegates discovered for getCompressedTokenAccountsByDelegate" in valid.skipped
    assert ("getIndexerHealth" in valid.examined_methods) is (scenario != "stale")
    if scenario == "stale":
        assert any("§7-C3" in reason and reason.startswith("getIndexerHealth") for reason in valid.skipped)


def _transaction_in_context(real: Dispatch, method: str, params: Any) -> Any:
    result = real(method, params)
    if method == "getTransactionWithCompressionInfo" and result is None:
        return {"context": {"slot": real("getIndexerSlot", None)}, "value": None}
    return result


def test_unknown_transaction_in_the_context_reading_is_not_found() -> None:
    """#11.4: `{context, value: null}` is the `context` reading of ambiguity transaction-context."""
    variant = Variant("transaction-in-context", "params", "params.not-found", dispatch=_transaction_in_context)
    check = _check(_run(serving(variant), ["params.not-found"]), "params.not-found")
    assert check.status is Status.PASS and check.examined == {"answers": 2}


def test_unknown_members_fail_on_the_spec_only_where_the_spec_says_so() -> None:
    """#11.6: §4.1 states "rejects unknown members" for getCompressedAccountBalance only."""
    variant = Variant("unknown-member-ignored", "params", "params.unknown-member", dispatch=_unknown_member_ignored)
    findings = {f.method: f for f in _check(_run(serving(variant), ["params.unknown-member"]),
                                            "params.unknown-member").findings}
    spec = findings["getCompressedAccountBalance"]
    assert (spec.status, spec.basis, spec.clauses) == (Status.FAIL, Basis.SPEC, ("4.1-R10",))
    alias = findings.get("getCompressedBalance")
    assert alias is None or (alias.basis is not Basis.SPEC and alias.status is not Status.FAIL)
