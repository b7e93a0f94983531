"""What a report says it judged: the target's declared name and version, and the ledger it was judged over,
named by content so that runs over the same data line up wherever the data lay."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from csi_conformance.harness.core.errors import UsageError
from csi_conformance.harness.core.model import RunResult
from csi_conformance.harness.engine.options import RunOptions
from csi_conformance.harness.engine.session import certify, ledger_identity
from csi_conformance.harness.report.merge import load_report, merge_results
from csi_conformance.ledger_ingest import LedgerSource

from .broken import serving


def _options(**given: str) -> RunOptions:
    return RunOptions.from_inputs(given, env={}, cwd=Path("/"))


def test_the_ledger_is_named_by_its_content_not_its_place(tmp_path: Path) -> None:
    one, other = tmp_path / "one", tmp_path / "other"
    one.mkdir()
    (one / "a.json").write_text('{"slot": 1}')
    (one / "b.json").write_text('{"slot": 2}')
    shutil.copytree(one, other)
    same = [ledger_identity(_options(ledger=f"file:{folder}")) for folder in (one, other)]
    assert same[0] == same[1] and same[0].startswith("files sha256:")
    (other / "b.json").write_text('{"slot": 3}')
    assert ledger_identity(_options(ledger=f"file:{other}")) != same[0]
    (other / "b.json").rename(other / "c.json")
    assert LedgerSource.files([other]).identity() != same[0]


def test_a_scenario_is_named_by_name_or_by_its_bytes(tmp_path: Path) -> None:
    scenario = tmp_path / "mine.yaml"
    scenario.write_text("slot: 1\n")
    assert ledger_identity(_options(scenario="default")) == "scenario default"
    assert ledger_identity(_options()) == "scenario default"  # the bundled reference serves the default scenario
    assert ledger_identity(_options(target="http://127.0.0.1:9")) is None  # a target's own data
    assert ledger_identity(_options(scenario=str(scenario))).startswith("scenario sha256:")
    assert ledger_identity(_options(**{"ledger-rpc": "https://rpc.example/?api-key=k", "slots": "5..9"})) == \
        "rpc slots 5..9"


@pytest.mark.parametrize("text", ["", " ", "a\nb", "x" * 101])
def test_a_declared_name_is_one_short_line(text: str) -> None:
    with pytest.raises(UsageError, match="--target-name"):
        _options(**{"target-name": text, "target": "http://127.0.0.1:9"})


def test_the_report_records_them_and_merging_keeps_them(tmp_path: Path) -> None:
    with serving(None) as url:
        result = certify({"target": url, "only": ["health.ok"], "target-name": "ref", "target-version": "1.2.0",
                          "scenario": "default", "report-dir": str(tmp_path)})
    back = load_report(tmp_path)
    assert (back.target_name, back.target_version, back.ledger) == ("ref", "1.2.0", "scenario default")
    assert (result.target_name, result.target_version) == ("ref", "1.2.0")
    assert merge_results([back, back]).target_version == "1.2.0"
    other = RunResult(**{**vars(back), "target_version": "1.3.0"})
    with pytest.raises(Exception, match="target_version"):
        merge_results([back, other])
