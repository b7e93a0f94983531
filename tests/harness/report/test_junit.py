"""junit.xml: one suite per family, one case per check; only statuses at the gate fail."""

from __future__ import annotations

import dataclasses
import xml.etree.ElementTree as ET
from pathlib import Path

from csi_conformance.harness.core.asked_again import AskedAgain
from csi_conformance.harness.core.model import Basis, RunResult, Status
from csi_conformance.harness.report import write_junit


def _parse(result: RunResult, directory: Path, **kwargs) -> ET.Element:
    path = write_junit(result, directory, **kwargs)
    assert path == directory / "junit.xml"
    assert path.read_bytes().startswith(b"<?xml version='1.0' encoding='utf-8'?>")
    return ET.parse(path).getroot()


def _case(root: ET.Element, check_id: str) -> ET.Element:
    (case,) = [c for c in root.iter("testcase") if c.get("name") == check_id]
    return case


def test_suites_per_family_and_counts(result: RunResult, tmp_path: Path) -> None:
    root = _parse(result, tmp_path)
    assert root.tag == "testsuites"
    assert (root.get("tests"), root.get("failures"), root.get("skipped"), root.get("errors")) == ("9", "3", "2", "0")
    suites = root.findall("testsuite")
    assert [s.get("name") for s in suites] == ["csi.envelope", "csi.transport", "csi.schema", "csi.limits",
                                               "csi.pagination", "csi.consistency", "csi.crypto", "csi"]
    for suite in suites:
        cases = suite.findall("testcase")
        assert int(suite.get("tests")) == len(cases)
        assert int(suite.get("failures")) == sum(1 for c in cases if c.find("failure") is not None)
        assert int(suite.get("skipped")) == sum(1 for c in cases if c.find("skipped") is not None)
        assert {c.get("classname") for c in cases} == {suite.get("name")}
    envelope = suites[0]
    assert (envelope.get("tests"), envelope.get("failures")) == ("2", "1")
    properties = {p.get("name"): p.get("value") for p in envelope.find("properties")}
    assert properties["seed"] == "1234" and properties["profile"] == "spec" and properties["gate"] == "FAIL"
    assert envelope.get("timestamp") == "2025-01-02T03:04:05"  # UTC, no offset (Ant JUnit schema)


def test_fail_is_a_failure_with_message_and_curl(result: RunResult, tmp_path: Path) -> None:
    root = _parse(result, tmp_path)
    case = _case(root, "envelope.id-echo")
    failure = case.find("failure")
    assert failure.get("message") == "Response id differs from request id"
    assert failure.get("type") == "FAIL"
    assert 'Member: $.id\nExpected: "test-account"\nReceived: 7' in failure.text
    assert "Reproduce: curl -sS -X POST 'http://127.0.0.1:8899/?api-key=REDACTED'" in failure.text
    # the WARN finding of the same check is shown, outside the failure
    assert "Numeric id not echoed as a number" in case.find("system-out").text
    assert "Numeric id" not in failure.text
    limits = _case(root, "limits.validity-hashes").find("failure")
    assert "getValidityProof" in limits.text and "curl" in limits.text


def test_findings_below_the_gate_pass_and_show(result: RunResult, tmp_path: Path) -> None:
    root = _parse(result, tmp_path)
    for check_id, status in (("envelope.jsonrpc-version", "WARN"), ("schema.token-state", "AMBIGUOUS"),
                             ("transport.post-only", "INFO")):
        case = _case(root, check_id)
        assert case.find("failure") is None and case.find("skipped") is None
        assert f"[{status}]" in case.find("system-out").text
        properties = [(p.get("name"), p.get("value")) for p in case.find("properties")]
        assert ("status", status) in properties
        assert any(name == "finding" and value.startswith(f"{status}: ") for name, value in properties)
    passed = _case(root, "crypto.account-hash")
    assert list(passed) == []


def test_skips_carry_their_reason(result: RunResult, tmp_path: Path) -> None:
    root = _parse(result, tmp_path)
    assert _case(root, "pagination.null-cursor").find("skipped").get("message") == \
        "no owner with more than one page discovered"
    assert _case(root, "consistency.balance-sum").find("skipped").get("message") == "not run"


def test_a_lower_gate_fails_warnings(passing: RunResult, tmp_path: Path) -> None:
    assert _parse(passing, tmp_path).get("failures") == "0"
    root = _parse(passing, tmp_path, gate=Status.WARN)
    assert root.get("failures") == "2"  # the check, and the verdict
    assert _case(root, "envelope.jsonrpc-version").find("failure").get("type") == "WARN"


def test_hostile_text_stays_parseable(hostile: RunResult, tmp_path: Path) -> None:
    root = _parse(hostile, tmp_path)
    failure = _case(root, "envelope.id-echo").find("failure")
    assert failure.get("message").startswith("Title <script>alert('x')</script> & \ufffd\ufffd[31m[bold]")
    assert "]]>" in failure.text
    assert _case(root, "health.indexer-health").find("skipped").get("message").startswith("<script>")


def test_unreadable_start_leaves_out_the_timestamp(passing: RunResult, tmp_path: Path) -> None:
    passing.started = "not a date"
    assert [s.get("timestamp") for s in _parse(passing, tmp_path).findall("testsuite")] == [None, None, None]


def test_baselined_findings_do_not_fail_their_case() -> None:
    """The gate ignores baselined findings, so JUnit must too (they still show in system-out)."""
    import dataclasses

    from csi_conformance.harness.core.model import CheckResult, Finding
    from csi_conformance.harness.report.junit import build_junit

    finding = Finding("health.ok", "Health is not ok", Status.FAIL, Basis.SPEC, ("4.2-M18",), "getIndexerHealth",
                      "rule", "ok", "healthy", None)
    check = CheckResult("health.ok", "health", ("4.2-M18",), "d", findings=[finding], runs=1)
    result = RunResult(target="http://x", profile="spec", seed=0, spec_version="0.50.0", started="2026-11-21T06:00:00",
                       checks=[check])
    assert build_junit(result).find(".//failure") is not None
    check.findings = [dataclasses.replace(finding, baselined=True)]
    case = build_junit(result).find(".//testcase")
    assert case.find("failure") is None and "Health is not ok" in case.find("system-out").text


def test_an_error_of_the_kit_is_a_junit_error_and_groups_show_their_count(result: RunResult, tmp_path: Path) -> None:
    import dataclasses

    from csi_conformance.harness.core.model import CheckResult, Finding

    kit = Finding("crypto.proof-verifies", "The kit could not complete this check", Status.ERROR, Basis.KIT,
                  ("2.3-R2",), "getValidityProof", "rule", "the check to run to its end", "KeyError: 'x'", None)
    result.checks.append(CheckResult("crypto.proof-verifies", "crypto", ("2.3-R2",), "Proofs verify",
                                     [kit], runs=1, methods={"getValidityProof"}))
    first = result.checks[0].findings[0]
    result.checks[0].findings[0] = dataclasses.replace(
        first, occurrences=22, kind="mismatch", expected={"value": 1}, received={"value": 100000},
        path="$.result.value",
        examples=({"path": None, "expected": 1, "received": 2, "request": None, "curl": "curl -sS other"},))
    root = _parse(result, tmp_path)
    assert (root.get("failures"), root.get("errors")) == ("3", "1")  # two checks and the verdict; the kit
    error = _case(root, "crypto.proof-verifies").find("error")
    assert error.get("type") == "ERROR" and error.get("message").endswith("(an error of the kit, not of the target)")
    assert "basis: an error of the kit itself" in error.text
    text = _case(root, "envelope.id-echo").find("failure").text
    assert "Response id differs from request id (seen in 22 answers)" in text
    assert "Member: $.result.value\nExpected: {\"value\":1}\nReceived: {\"value\":100000}" in text
    assert "Also: expected 1, received 2  (reproduce: curl -sS other)" in text


def _verdict(root) -> tuple[str | None, str | None, str]:
    case = _case(root, "verdict")
    outcome = case.find("failure") if case.find("failure") is not None else case.find("error")
    return (outcome.tag, outcome.get("message"), outcome.text) if outcome is not None else (None, None, "")


def test_the_verdict_is_a_test_case_that_fails_unless_the_run_conforms(passing: RunResult, result: RunResult,
                                                                       tmp_path: Path) -> None:
    """A dashboard shows the run's verdict as one more test: green only when `csi run` would exit 0."""
    assert _verdict(_parse(passing, tmp_path))[0] is None
    tag, message, _ = _verdict(_parse(result, tmp_path))
    assert (tag, message) == ("failure", "not conformant (csi run would exit 1)")


def test_a_run_that_proved_nothing_is_an_error_not_green(passing: RunResult, tmp_path: Path) -> None:
    """An inconclusive, interrupted or unstarted run has no failing check, and still must not show green."""
    passing.inconclusive = ["the request budget (--max-requests 5) ran out: 40 checks examined nothing"]
    tag, message, text = _verdict(_parse(passing, tmp_path))
    assert (tag, message) == ("error", "inconclusive (csi run would exit 3)") and "--max-requests 5" in text
    passing.inconclusive, passing.interrupted = [], True
    assert _verdict(_parse(passing, tmp_path))[:2] == ("error", "inconclusive (csi run would exit 130)")
    passing.interrupted, passing.error = False, "--max-requests: must be a whole number of 1 or more, got '0'"
    tag, message, text = _verdict(_parse(passing, tmp_path))
    assert (tag, message) == ("error", "not run (csi run would exit 2)") and "--max-requests" in text


def test_a_green_verdict_that_leaned_on_requests_asked_again_says_so(passing: RunResult, tmp_path: Path) -> None:
    asked = AskedAgain("getValidityProof", "/", 60.0, 7, "timeout after 60.0 s (no response)", True,
                       "answered HTTP 200 in 12.0 s")
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    leaned = _case(_parse(dataclasses.replace(passing, asked_again=[asked]), tmp_path / "a"), "verdict")
    assert leaned.find("failure") is None and leaned.find("error") is None
    assert leaned.findtext("system-out").startswith("Asked again alone: 1 request(s)")
    assert _case(_parse(passing, tmp_path / "b"), "verdict").find("system-out") is None
