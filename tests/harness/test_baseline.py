"""Baselines: known findings are reported but not gated, new ones are, and stale entries are listed."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from csi_conformance.harness.core.baseline import apply_baseline, load_baseline
from csi_conformance.harness.core.errors import ConfigError
from csi_conformance.harness.core.model import BaselineEntry, Basis, CheckResult, Finding, RunResult, Status
from csi_conformance.harness.report import SCHEMA_PATH, to_json
from csi_conformance.harness.report.console import ConsoleReporter
from csi_conformance.harness.report.html import render_html
from jsonschema import Draft202012Validator
from rich.console import Console

CHECKS = {"consistency.balance-by-owner", "differential.cases", "health.ok", "crypto.account-hash"}
METHODS = {"getCompressedBalanceByOwner", "getCompressedAccount", "getIndexerHealth"}


def _finding(check: str, method: str | None, title: str = "Balance differs") -> Finding:
    return Finding(check, title, Status.FAIL, Basis.SPEC, ("4.2-M4",), method, "rule", "1", "2", None)


def _result() -> RunResult:
    checks = [
        CheckResult("consistency.balance-by-owner", "consistency", ("4.2-M4",), "d",
                    [_finding("consistency.balance-by-owner", "getCompressedBalanceByOwner")], runs=1),
        CheckResult("differential.cases", "differential", ("4.2-M1",), "d",
                    [_finding("differential.cases", "getCompressedAccount", "Answer differs from the reference")],
                    runs=1),
        CheckResult("health.ok", "health", ("7-C3",), "d", [], runs=1, examined={"answers": 1}),
        CheckResult("crypto.account-hash", "crypto", ("2.3-R2",), "d", [], runs=1, skipped=["no key"]),
    ]
    return RunResult(target="http://127.0.0.1:1/", profile="spec", seed=0, spec_version="0.50.0",
                     started="2025-01-02T03:04:05+00:00", checks=checks)


def _load(tmp_path: Path, text: str, name: str = "baseline.yaml") -> list[BaselineEntry]:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return load_baseline(path, checks=CHECKS, methods=METHODS)


def test_known_findings_are_not_gated_and_new_ones_are(tmp_path: Path) -> None:
    result = _result()
    assert not result.gate()
    known = "- {check: consistency.balance-by-owner, method: getCompressedBalanceByOwner}\n"
    apply_baseline(result, _load(tmp_path, known))
    assert [f.baselined for f in result.findings] == [True, False]
    assert [f.check_id for f in result.blocking()] == ["differential.cases"] and not result.gate()
    everything = _result()
    both = ("- {check: consistency.balance-by-owner}\n"
            "- check: differential.cases\n  title: Answer differs from the reference\n"
            "  reason: the vendor's fix ships next month\n")
    apply_baseline(everything, _load(tmp_path, both))
    assert everything.gate() and all(f.baselined for f in everything.findings)
    assert everything.checks[0].status is Status.FAIL, "a baselined finding is still reported"


def test_entries_narrow_by_method_and_title(tmp_path: Path) -> None:
    result = _result()
    narrow = ("- {check: differential.cases, method: getIndexerHealth}\n"
              "- {check: differential.cases, title: Outcome differs from the reference}\n")
    apply_baseline(result, _load(tmp_path, narrow))
    assert not any(f.baselined for f in result.findings)
    assert len(result.stale_baseline) == 2


def test_stale_entries_are_those_whose_check_ran_and_matched_nothing(tmp_path: Path) -> None:
    result = _result()
    entries = _load(tmp_path, "- {check: health.ok}\n- {check: crypto.account-hash}\n"
                              "- {check: consistency.balance-by-owner, method: null}\n")
    apply_baseline(result, entries)
    assert result.stale_baseline == [BaselineEntry("health.ok")]  # crypto.account-hash was SKIP: not stale
    assert result.baseline == entries


def test_json_file_and_previous_report_are_baselines(tmp_path: Path) -> None:
    entries = _load(tmp_path, json.dumps([{"check": "health.ok", "method": None}]), "baseline.json")
    assert entries == [BaselineEntry("health.ok")]
    report = {"findings": [{"check_id": "differential.cases", "method": "getCompressedAccount",
                            "title": "Answer differs from the reference"}]}
    entries = _load(tmp_path, json.dumps(report), "report.json")
    assert entries == [BaselineEntry("differential.cases", "getCompressedAccount", "Answer differs from the reference")]


@pytest.mark.parametrize(("text", "message"), [
    ("{check: health.ok}\n", "a list"),
    ("- health.ok\n", "entry 1: an entry is a mapping"),
    ("- {method: getIndexerHealth}\n", "entry 1: an entry is a mapping"),
    ("- {check: health.ok}\n- {check: health.okay}\n", "entry 2: no check 'health.okay'"),
    ("- {check: health.ok, method: getIndexerHeath}\n", "no method 'getIndexerHeath'"),
    ("- {check: health.ok, severity: low}\n", "unknown member(s) severity"),
    ("- {check: health.ok, method: 7}\n", "`method` must be a string"),
    ("- [unclosed\n", "not valid YAML"),
])
def test_a_malformed_baseline_is_a_config_error(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message.replace("(", r"\(").replace(")", r"\)")):
        _load(tmp_path, text)


def test_a_missing_file_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read the baseline"):
        load_baseline(tmp_path / "none.yaml", checks=CHECKS, methods=METHODS)


def test_reports_carry_the_baseline(tmp_path: Path) -> None:
    result = _result()
    apply_baseline(result, _load(tmp_path, "- {check: consistency.balance-by-owner}\n- {check: health.ok}\n"))
    report = to_json(result)
    validator = Draft202012Validator(json.loads(SCHEMA_PATH.read_text(encoding="utf-8")))
    assert [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(report)] == []
    assert report["baseline"] == {"entries": 2, "baselined": 1,
                                  "stale": [{"check": "health.ok", "method": None, "title": None}]}
    assert [f["baselined"] for f in report["findings"]] == [True, False]
    assert report["gate"] == {"threshold": "FAIL", "passed": False, "blocking": 1, "exit_code": 1, "kit_errors": 0,
                              "verdict": "not conformant"}
    stream = io.StringIO()
    ConsoleReporter(Console(file=stream, width=200, force_terminal=False)).print_summary(result)
    text = stream.getvalue()
    assert "Balance differs" not in text  # a known finding is counted, not reprinted on every run
    assert "Baseline: 1 known finding(s) not counted by the gate; 1 stale entry matched no finding: health.ok" in text
    assert "Threshold FAIL (--fail-on): 1 finding(s)" in text
    page = render_html(result)
    assert "<h2>Baseline</h2>" in page and "baselined: known, not counted by the gate" in page


def test_without_a_baseline_nothing_is_said_about_one() -> None:
    report = to_json(_result())
    assert report["baseline"] is None and not any(f["baselined"] for f in report["findings"])
    assert "<h2>Baseline</h2>" not in render_html(_result())
