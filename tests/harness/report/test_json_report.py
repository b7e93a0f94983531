"""report.json: carries every fact of the run, keeps integers exact, and matches report.schema.json."""

from __future__ import annotations

import dataclasses
import json
from importlib.metadata import version
from pathlib import Path

import pytest
from csi_conformance.groundwork import jsonio
from csi_conformance.harness.core.model import Basis, RunResult, Status
from csi_conformance.harness.report import SCHEMA_PATH, to_json, write_json
from csi_conformance.harness.report.values import jsonable
from jsonschema import Draft202012Validator

from tests.harness.report import samples


@pytest.fixture(scope="module")
def validator() -> Draft202012Validator:
    document = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(document)
    return Draft202012Validator(document)


def _written(result: RunResult, directory: Path, **kwargs) -> dict:
    path = write_json(result, directory, **kwargs)
    assert path == directory / "report.json"
    return jsonio.loads(path.read_bytes())


def test_report_validates_against_its_schema(result: RunResult, hostile: RunResult, passing: RunResult,
                                             validator: Draft202012Validator, tmp_path: Path) -> None:
    for index, run in enumerate((result, hostile, passing)):
        (tmp_path / str(index)).mkdir()
        report = _written(run, tmp_path / str(index))
        errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(report)]
        assert errors == []


def test_schema_rejects_a_report_missing_a_field(result: RunResult, validator: Draft202012Validator) -> None:
    report = to_json(result)
    del report["findings"][0]["curl"]
    assert not validator.is_valid(report)


def test_big_integers_stay_exact(result: RunResult, tmp_path: Path) -> None:
    text = write_json(result, tmp_path).read_text(encoding="utf-8")
    assert str(samples.BIG_AMOUNT) in text and str(samples.BIG_LAMPORTS) in text
    finding = next(f for f in jsonio.loads(text)["findings"] if f["check_id"] == "schema.token-state")
    item = finding["response"]["result"]["value"]["items"][0]
    assert item["tokenData"]["amount"] == samples.BIG_AMOUNT
    assert item["account"]["lamports"] == samples.BIG_LAMPORTS
    assert finding["request"]["params"]["limit"] == samples.BIG_REQUEST


def test_carries_the_run(result: RunResult, tmp_path: Path) -> None:
    report = _written(result, tmp_path)
    assert report["tool"] == {"name": "csi-conformance", "version": version("csi-conformance")}
    assert (report["target"], report["seed"], report["profile"]) == (samples.URL, 1234, "spec")
    assert (report["requests"], report["duration"], report["interrupted"]) == (321, 12.346, False)
    assert report["summary"]["checks"] == result.counts()
    assert report["summary"]["checks"] == {"PASS": 1, "N/A": 0, "SKIP": 2, "UNVERIFIED": 0, "INFO": 1, "AMBIGUOUS": 1,
                                           "WARN": 1, "ERROR": 0, "FAIL": 2}
    assert report["summary"]["findings"] == {"PASS": 0, "N/A": 0, "SKIP": 0, "UNVERIFIED": 0, "INFO": 1, "AMBIGUOUS": 1,
                                             "WARN": 2, "ERROR": 0, "FAIL": 2}
    assert report["gate"] == {"threshold": "FAIL", "passed": False, "blocking": 2, "verdict": "not conformant",
                              "exit_code": 1, "kit_errors": 0}
    assert (report["inconclusive"], report["precondition"]) == ([], None)
    assert report["discovered"]["owners"] == [samples.OWNER, "B2"]
    assert [c["id"] for c in report["checks"]] == [c.check_id for c in result.checks]
    assert len(report["findings"]) == len(result.findings) == 6


def test_checks_and_findings_fields(result: RunResult) -> None:
    report = to_json(result)
    checks = {c["id"]: c for c in report["checks"]}
    assert checks["pagination.null-cursor"]["skip_reason"] == "no owner with more than one page discovered"
    assert checks["consistency.balance-sum"]["skip_reason"] == "not run"
    assert checks["crypto.account-hash"] == {
        "id": "crypto.account-hash", "family": "crypto", "clauses": ["2.3-R2"],
        "description": "Verifies crypto.account-hash", "basis": "spec", "basis_label": "the spec", "status": "PASS",
        "runs": 12, "skip_reason": None, "skips": [], "other_shards": False, "not_reached": [],
        "methods": ["getCompressedAccount"], "examined": {"answers": 12}, "examined_methods": ["getCompressedAccount"],
        "incomplete": None, "findings": 0}
    assert checks["envelope.id-echo"]["methods"] == ["getCompressedAccount", "getIndexerHealth", "getIndexerSlot"]
    fail = report["findings"][0]
    assert fail["status"] == "FAIL" and fail["basis"] == "spec" and fail["method"] == "getCompressedAccount"
    assert fail["curl"].startswith("curl ") and fail["http_status"] == 200 and fail["seed"] == 1234
    assert (fail["kind"], fail["path"], fail["expected"], fail["received"]) == ("mismatch", "$.id", "test-account", 7)
    assert "message" not in fail  # the values are the finding; sentences are the writers' views
    assert fail["basis_label"] == "the spec" and fail["occurrences"] == 1 and fail["examples"] == []
    assert report["findings"][3]["method"] is None  # transport finding not tied to a method


def test_observations(result: RunResult, contract) -> None:
    token, wrapper = to_json(result)["observations"]
    assert token["ambiguity"] == "token-state" and token["clause"] == "3.1-R1"
    assert token["question"] == contract.ambiguity("token-state").question
    assert (token["observed_practice"], token["readings"], token["answers"]) == ("string", ["integer"], 5)
    assert wrapper["readings"] == ["wrapped", "bare"] and wrapper["counts"] == {"wrapped": 2, "bare": 2}


@pytest.mark.parametrize(("gate", "passed", "blocking"), [(Status.FAIL, True, 0), (Status.WARN, False, 1)])
def test_gate_threshold(passing: RunResult, gate: Status, passed: bool, blocking: int) -> None:
    assert to_json(passing, gate=gate)["gate"] == {
        "threshold": gate.value, "passed": passed, "blocking": blocking, "exit_code": 0 if passed else 1,
        "verdict": "conformant" if passed else "not conformant", "kit_errors": 0}


def test_hostile_values_are_written(hostile: RunResult, tmp_path: Path) -> None:
    report = _written(hostile, tmp_path)
    finding = report["findings"][0]
    assert finding["response"]["huge"] == "inf"
    assert finding["request"]["raw"] == "\ufffd\x00"
    assert "\ufffd" in finding["received"] and "<script>" in finding["received"]  # kept, not rewritten
    assert finding["response"]["error"].startswith("<script>")
    assert list(finding["response"].values())[2] == [1.5, 2**80]


def test_too_deep_an_answer_spoils_only_itself(result: RunResult, validator: Draft202012Validator,
                                               tmp_path: Path) -> None:
    deep: list = []
    for _ in range(jsonio.MAX_DEPTH):  # as deep as jsonio.loads reads an answer
        deep = [deep]
    check = result.checks[0]
    check.findings[0] = dataclasses.replace(check.findings[0], response=deep, request={"params": deep})
    report = _written(result, tmp_path)  # reads back with jsonio.loads
    assert validator.is_valid(report)
    assert report["findings"][0]["received"] == check.findings[0].received
    assert "<nested too deeply to report>" in jsonio.dumps(report["findings"][0]["response"])
    assert report["findings"][1]["response"] == jsonable(check.findings[1].response)


def test_schema_documents_every_field_and_every_status() -> None:
    document = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    undocumented = []

    def walk(node: object, where: str) -> None:
        if isinstance(node, dict):
            for name, sub in node.get("properties", {}).items():
                if "description" not in sub:
                    undocumented.append(f"{where}.{name}")
            for key, sub in node.items():
                walk(sub, f"{where}.{key}")

    walk(document, "$")
    assert undocumented == []
    assert document["$defs"]["Status"]["enum"] == [s.value for s in Status]
    assert document["$defs"]["Basis"]["enum"] == [b.value for b in Basis]
    assert document["properties"]["format_version"]["const"] == to_json.__globals__["FORMAT_VERSION"]


def test_grouped_findings_errors_of_the_kit_and_reasons(result: RunResult, validator: Draft202012Validator) -> None:
    """A grouped finding keeps its count and examples, an error of the kit its own status and basis, and a
    finding with a request but no curl line gets one rebuilt from the target."""
    check = result.checks[0]
    first = check.findings[0]
    example = {"path": "$.id", "expected": "a", "received": 8, "request": {"id": "a"}, "curl": "curl -sS x"}
    check.findings[0] = dataclasses.replace(first, occurrences=22, examples=(example,), curl=None,
                                            kind="mismatch", expected="test-account", received=7, path="$.id")
    check.findings.append(dataclasses.replace(first, title="The kit could not complete this check",
                                              status=Status.ERROR, basis=Basis.KIT, request=None, curl=None))
    result.inconclusive = ["the kit itself failed in 1 checks (envelope.id-echo): an error of csi, not of the target"]
    report = to_json(result)
    assert [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(report)] == []
    grouped, error = report["findings"][0], report["findings"][2]
    assert (grouped["occurrences"], grouped["examples"], grouped["path"]) == (22, [example], "$.id")
    assert grouped["curl"].startswith(f'curl -sS -i "{samples.URL.replace("REDACTED", "${CSI_API_KEY}")}"')
    assert '"id":"test-account"' in grouped["curl"] and "REDACTED" not in grouped["curl"]
    assert (error["status"], error["basis"], error["curl"]) == ("ERROR", "kit", None)
    assert "not a finding about the target" in error["basis_label"]
    assert report["gate"]["kit_errors"] == 1 and report["summary"]["findings"]["ERROR"] == 1
    assert report["inconclusive"] == result.inconclusive


def test_every_check_names_its_basis_whatever_its_status() -> None:
    """#11: a SKIP or PASS rests on something too, and the report says what, naming a non-spec basis as such."""
    from csi_conformance.harness.core.model import Basis, CheckResult

    check = CheckResult("crypto.account-hash", "crypto", ("ledger-H1",), "d", basis=Basis.LEDGER)
    ledger = RunResult(target="t", profile="spec", seed=0, spec_version="0.50.0", started="s", checks=[check])
    (entry,) = to_json(ledger)["checks"]
    assert entry["status"] == "SKIP" and entry["basis"] == "ledger"
    assert "not the spec text" in entry["basis_label"]


def test_the_path_a_check_named_wins_and_survives_a_merge(result: RunResult, tmp_path) -> None:
    """The member a check names (`Finding.path`) is the one reported, before any path its message
    mentions, and `csi report merge` reads it back."""
    from csi_conformance.harness.report.merge import load_report

    check = result.checks[0]
    check.findings[0] = dataclasses.replace(check.findings[0], path="$.result.value.items[3].leafIndex")
    report = to_json(result)
    assert report["findings"][0]["path"] == "$.result.value.items[3].leafIndex"
    saved = tmp_path / "report.json"
    saved.write_text(jsonio.dumps(report))
    assert load_report(saved).checks[0].findings[0].path == "$.result.value.items[3].leafIndex"
