"""The proxy judges an app's traffic as `csi run` judges its own exchanges: against broken variants of the
reference, the findings the proxy gives for the traffic are those the run's answer checks give for the same
requests asked directly (ids, paths, titles); `--block fail` answers a JSON-RPC error in place of a failing
answer; `--shadow` catches what only a comparison can (a wrong but well-formed balance); and `csi judge
--traffic` on the proxy's recording gives the live proxy's findings."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from csi_conformance.groundwork.jsonio import dumps, loads
from csi_conformance.harness.connection import Target
from csi_conformance.harness.context import CheckContext, RunFacts
from csi_conformance.harness.core.model import Finding
from csi_conformance.harness.core.profile import profile_named
from csi_conformance.harness.core.registry import REGISTRY
from csi_conformance.harness.engine.answer_judge import AnswerJudge
from csi_conformance.harness.proxy import ProxyOptions, judge_traffic, running_proxy
from csi_conformance.reference_server.export import export_document
from csi_conformance.reference_server.scenario import open_scenario

from tests.harness.broken import all_variants, serving
from tests.harness.proxy.support import KEY, replay

VARIANTS = {variant.name: variant for variant in all_variants()}
CAUGHT = ["id-not-echoed", "string-lamports", "shifted-leaf-index"]
"""Variants an answer check catches on any answer of theirs: the traffic below meets each."""


def _traffic() -> list[dict[str, Any]]:
    """What an app asks of the default scenario: its owners' accounts, balances, one account, the slot."""
    document = export_document(open_scenario("default"))
    owners = sorted({account["owner"] for account in document["accounts"]})[:3]
    first = document["accounts"][0]["hash"]
    calls = [("getIndexerSlot", None), ("getCompressedAccount", {"hash": first}),
             ("getCompressedBalance", {"hash": first})]
    calls += [("getCompressedAccountsByOwner", {"owner": owner}) for owner in owners]
    calls += [("getCompressedBalanceByOwner", {"owner": owner}) for owner in owners]
    return [{"jsonrpc": "2.0", "id": f"app-{i}", "method": method, **({"params": params} if params else {})}
            for i, (method, params) in enumerate(calls)]


TRAFFIC = _traffic()


def _key(finding: Finding) -> tuple[str, str | None, str | None, str]:
    return finding.check_id, finding.method, finding.path, finding.title


def _asked_directly(url: str) -> set[tuple]:
    """The answer checks' findings for the same requests asked the way `csi run` asks (its client, its context)."""
    facts = RunFacts(profile=profile_named("spec"))
    answers = AnswerJudge(REGISTRY.all())
    with Target(url) as target:
        ctx = CheckContext(facts, target, answers.judge, on_failure_body=answers.failure_body)
        for request in TRAFFIC:
            ctx.call(request["method"], request.get("params") or {}, id=request["id"]) if "params" in request \
                else ctx.call(request["method"], id=request["id"])
    return {_key(f) for result in answers.results.values() for f in result.findings}


def _proxied(url: str, tmp_path: Path, **options: Any) -> tuple[list, set[tuple], Path]:
    """The traffic through an in-process proxy; the answers, the findings, the recording."""
    record = tmp_path / "traffic.ndjson"
    with running_proxy(ProxyOptions(upstream=f"{url}/?api-key={KEY}", record=record, **options)) as (proxy, session):
        answers = replay(proxy, [dumps(request).encode() for request in TRAFFIC])
        session.drain()
        findings = {_key(f) for f in session.judge.result().findings}
    return answers, findings, record


@pytest.mark.parametrize("name", CAUGHT)
def test_findings_equal_the_runs_and_the_recordings(name: str, tmp_path: Path) -> None:
    with serving(VARIANTS[name]) as url:
        _, live, record = _proxied(url, tmp_path)
        direct = _asked_directly(url)
    assert live, f"{name}: the proxy found nothing"
    assert any(check == VARIANTS[name].check for check, *_ in live)
    assert live == direct
    judged = {_key(f) for f in judge_traffic(record, ProxyOptions()).findings}
    assert judged == live
    assert KEY.encode() not in record.read_bytes()


def test_block_fail_answers_a_json_rpc_error(tmp_path: Path) -> None:
    with serving(VARIANTS["string-lamports"]) as url:
        answers, findings, _ = _proxied(url, tmp_path, block=True, header=True)
    blocked = [loads(a.content) for a in answers if a.json().get("error", {}).get("code") == -32099]
    assert blocked and findings
    assert all(b["id"].startswith("app-") and "schema.result" in b["error"]["message"] for b in blocked)
    assert all(a.status_code == 200 and "x-csi-findings" in a.headers for a in answers)
    assert any(a.json().get("result") is not None and a.headers["x-csi-findings"] == "0" for a in answers)


def test_shadow_catches_a_wrong_well_formed_balance(tmp_path: Path) -> None:
    with serving(VARIANTS["balance-off-by-one"]) as url, serving(None) as truth:
        _, alone, _ = _proxied(url, tmp_path)
        answers, shadowed, _ = _proxied(url, tmp_path, shadow=truth)
    assert not alone  # well formed: no answer check can tell
    assert {(check, method) for check, method, *_ in shadowed} == {("differential.generated",
                                                                    "getCompressedBalanceByOwner")}
    assert all(a.status_code == 200 and "result" in a.json() for a in answers)  # the app still gets the answer
